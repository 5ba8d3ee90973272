package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.model.Role;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The checks that need the network: the policy's own {@code tests} and {@code sshTests}, and e-mail domains. */
class PolicyChecksTest {

    private static final String DEFS = "'groups': {'group:dev': ['alice@example.com', 'bob@example.com']},"
            + " 'tagOwners': {'tag:server': [], 'tag:db': []}, 'hosts': {'nas': '100.64.0.3', 'office': '10.1.0.0/16'},"
            + " 'acls': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server:22', 'nas:445']},"
            + " {'action': 'accept', 'src': ['tag:server'], 'dst': ['tag:db:5432'], 'proto': 'tcp'},"
            + " {'action': 'accept', 'src': ['autogroup:member'], 'dst': ['autogroup:self:*']}],"
            + " 'ssh': [{'action': 'check', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['root']},"
            + " {'action': 'accept', 'src': ['autogroup:member'], 'dst': ['tag:server'], 'users': ['autogroup:nonroot']},"
            + " {'action': 'accept', 'src': ['bob@example.com'], 'dst': ['tag:db'], 'users': ['localpart:*@example.com']}]";

    private static final PolicyInventory NETWORK = new PolicyInventory(
            List.of(new PolicyUser(1, "alice", "alice@example.com", Role.OWNER),
                    new PolicyUser(2, "bob", "bob@example.com", Role.MEMBER),
                    new PolicyUser(3, "carol", "carol@other.example", Role.MEMBER)),
            List.of(new PolicyNode(1, "server", "n1", null, List.of("tag:server"), "100.64.0.1", "fd7a:115c:a1e0::1", List.of()),
                    new PolicyNode(2, "db", "n2", null, List.of("tag:db"), "100.64.0.2", "fd7a:115c:a1e0::2", List.of()),
                    new PolicyNode(3, "nas", "n3", 2L, List.of(), "100.64.0.3", "fd7a:115c:a1e0::3", List.of())));

    private static void check(String sections) {
        PolicyChecks.check(Policy.parse(("{" + DEFS + ", " + sections + "}").replace('\'', '"')), NETWORK);
    }

    static Stream<String> passing() {
        return Stream.of(
                "'tests': [{'src': 'alice@example.com', 'accept': ['tag:server:22', 'nas:445', '100.64.0.1:22'],"
                        + " 'deny': ['tag:server:80', 'tag:db:5432']}]",
                "'tests': [{'src': 'group:dev', 'accept': ['tag:server:22']}]",
                "'tests': [{'src': 'tag:server', 'proto': 'tcp', 'accept': ['tag:db:5432']},"
                        + " {'src': 'tag:server', 'proto': 'udp', 'deny': ['tag:db:5432']}]",
                "'tests': [{'src': 'bob@example.com', 'accept': ['autogroup:self:22']},"
                        + " {'src': 'carol@other.example', 'deny': ['nas:445']}]",
                "'sshTests': [{'src': 'alice@example.com', 'dst': ['tag:server'], 'check': ['root'], 'accept': ['ubuntu']},"
                        + " {'src': 'carol@other.example', 'dst': ['tag:server'], 'accept': ['ubuntu'], 'deny': ['root']},"
                        + " {'src': 'bob@example.com', 'dst': ['tag:db'], 'accept': ['bob'], 'deny': ['alice', 'root']}]");
    }

    @ParameterizedTest
    @MethodSource("passing")
    void passingTestsLetThePolicyThrough(String sections) {
        assertDoesNotThrow(() -> check(sections));
    }

    static Stream<Arguments> failing() {
        return Stream.of(
                Arguments.of("'tests': [{'src': 'carol@other.example', 'accept': ['tag:server:22']}]",
                        "test(s) failed: accept \"tag:server:22\" from carol@other.example: got drop"),
                Arguments.of("'tests': [{'src': 'alice@example.com', 'deny': ['nas:445']}]",
                        "test(s) failed: deny \"nas:445\" from alice@example.com: got accept"),
                Arguments.of("'tests': [{'src': 'tag:server', 'proto': 'udp', 'accept': ['tag:db:5432']}]",
                        "test(s) failed: accept \"tag:db:5432\" from tag:server: got drop"),
                Arguments.of("'tests': [{'src': 'alice@example.com', 'accept': ['tag:server:22,80']}]",
                        "test(s) failed: accept \"tag:server:22,80\": the port must be a single port"),
                Arguments.of("'tests': [{'src': 'alice@example.com', 'accept': ['office:22']}]",
                        "test(s) failed: accept \"office:22\": the destination must be a single host"),
                Arguments.of("'tests': [{'src': 'nobody@example.com', 'accept': ['tag:server:22']}]",
                        "test(s) failed: src \"nobody@example.com\": user not found"),
                Arguments.of("'tests': [{'src': 'alice@example.com'}]",
                        "test(s) failed: src \"alice@example.com\": a test needs \"accept\" or \"deny\""),
                Arguments.of("'sshTests': [{'src': 'alice@example.com', 'dst': ['tag:server'], 'deny': ['root']}]",
                        "test(s) failed: ssh alice@example.com -> tag:server as \"root\": want deny, got check"),
                Arguments.of("'sshTests': [{'src': 'carol@other.example', 'dst': ['tag:server'], 'accept': ['root']}]",
                        "test(s) failed: ssh carol@other.example -> tag:server as \"root\": want accept, got deny"),
                Arguments.of("'tests': [{'src': 'carol@other.example', 'accept': ['tag:server:22', 'nas:445']}]",
                        "test(s) failed: accept \"tag:server:22\" from carol@other.example: got drop; "
                                + "accept \"nas:445\" from carol@other.example: got drop"));
    }

    @ParameterizedTest
    @MethodSource("failing")
    void aFailingTestRefusesThePolicyNamingTheCase(String sections, String error) {
        assertEquals(error, assertThrows(PolicyException.class, () -> check(sections)).getMessage());
    }

    @ParameterizedTest
    @MethodSource("foreignDomains")
    void domainsMustBeTheNetworksOwn(String sections, String error) {
        assertEquals(error, assertThrows(PolicyException.class, () -> check(sections)).getMessage(),
                "the network's domain is its owner's (alice@example.com), not a guest's");
    }

    static Stream<Arguments> foreignDomains() {
        String notOurs = " is not associated with this Tailnet and cannot be used in user:*@<domain> expressions";
        return Stream.of(
                Arguments.of("'grants': [{'src': ['user:*@other.example'], 'dst': ['tag:db'], 'ip': ['*']}]",
                        "other.example" + notOurs),
                Arguments.of("'ssh': [{'action': 'accept', 'src': ['user:*@other.example'], 'dst': ['tag:db'],"
                        + " 'users': ['root']}]", "[ssh] other.example" + notOurs),
                Arguments.of("'ssh': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['tag:db'],"
                        + " 'users': ['localpart:*@other.example']}]", "other.example" + notOurs));
    }
}
