package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.net.IpBlock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parsing and validation of every policy section. Refusals carry the vendor's own error text (observed from its
 * API), so that people can search for them; policies are written with single quotes here for readability.
 */
class PolicyValidationTest {

    private static final String DEFS = "'groups': {'group:dev': ['alice@example.com'], 'group:empty': []},"
            + " 'tagOwners': {'tag:server': ['alice@example.com'], 'tag:router': ['group:dev'], 'tag:exit': ['tag:router']},"
            + " 'hosts': {'nas': '192.0.2.10', 'office': '10.1.0.0/16'}";

    /** A policy with the usual definitions and the given sections. */
    static String policy(String sections) {
        return ("{" + DEFS + (sections.isEmpty() ? "" : ", " + sections) + "}").replace('\'', '"');
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                // groups and tags
                Arguments.of("'groups': {'group:a': ['group:b'], 'group:b': ['group:a']}",
                        "groups[\"group:b\"]: \"group:a\": group members cannot be recursive"),
                Arguments.of("'groups': {'group:outer': ['group:inner'], 'group:inner': ['bob@example.com']}",
                        "groups[\"group:outer\"]: \"group:inner\": group members cannot be recursive"),
                Arguments.of("'tagOwners': {'tag:сервер': ['alice@example.com']}",
                        "tagOwners[\"tag:сервер\"]: tag names must start with a letter, after 'tag:'"),
                Arguments.of("'tagOwners': {'tag:x': ['group:nobody']}",
                        "tagOwners[\"tag:x\"]: group not found: \"group:nobody\""),
                // a bare name is refused as by the vendor, and the message shows how users are written
                Arguments.of("'tagOwners': {'tag:x': ['alice']}",
                        "tagOwners[\"tag:x\"]: \"alice\": owners are users, groups, tags or autogroups; users are written"
                                + " with an @: \"alice@\" (a user without an e-mail address) or their e-mail address"),
                // acls
                Arguments.of("'acls': [{'action': 'accept', 'src': ['tag:x'], 'dst': ['*:*']}]",
                        "src=tag not found: \"tag:x\""),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['tag:x:22']}]",
                        "dst=\"tag:x\": tag not found: \"tag:x\""),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['group:x'], 'dst': ['*:*']}]",
                        "src=group not found: \"group:x\""),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['printer:22']}]",
                        "dst=\"printer\": host not found: \"printer\""),
                Arguments.of("'acls': [{'action': 'deny', 'src': ['*'], 'dst': ['*:*']}]",
                        "action=\"deny\" is not supported"),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['tag:server:ssh']}]",
                        "dst=\"tag:server:ssh\": port range \"ssh\": invalid first integer"),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['autogroup:self']}]",
                        "dst=\"autogroup:self\": port range \"self\": invalid first integer"),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['autogroup:self'], 'dst': ['*:*']}]",
                        "\"autogroup:self\" not valid on the src side of a rule"),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['tag:server'], 'dst': ['autogroup:self:*']}]",
                        "autogroup:self can only be used with users, groups, or supported autogroups"),
                Arguments.of("'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['*:*'], 'proto': 'bogus'}]",
                        "proto name \"bogus\" not known; use protocol number 0-255 or protocol name (icmp, tcp, udp, etc.)"),
                // grants
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['*']}]", "ip and app can not both be empty"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['10.1.0.0/16'], 'ip': ['*'], 'via': ['autogroup:tagged']}]",
                        "via can only be a tag"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['10.1.0.0/16'], 'ip': ['*'], 'via': ['tag:nope']}]",
                        "tag \"tag:nope\" not found"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['0.0.0.0/0'], 'ip': ['*']}]",
                        "dst \"0.0.0.0/0\": to allow all IP addresses, use \"*\" or \"autogroup:internet\""),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['tag:server'], 'ip': ['icmp']}]",
                        "port range \"icmp\": invalid first integer"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['tag:server'], 'ip': ['tcp:0']}]",
                        "port range \"0\": first port must be >0, or use '*' for wildcard"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['*'], 'app': {'https://example.com/cap': [{}]}}]",
                        "capability name must have the form {domain}/{path}"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['*'], 'app': {'tailscale.com/cap/funnel': [{}]}}]",
                        "capability name must not be in the tailscale.com domain"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['autogroup:internet'], 'app': {'example.com/cap/x': [{}]}}]",
                        "cannot use app grants with autogroup:internet"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['autogroup:danger-all'], 'ip': ['*']}]",
                        "cannot use autogroup:danger-all as a dst"),
                Arguments.of("'grants': [{'src': ['*'], 'dst': ['autogroup:self'], 'ip': ['*']}]",
                        "autogroup:self can only be used with users, groups, or supported autogroups"),
                // ssh
                Arguments.of("'ssh': [{'src': ['autogroup:member'], 'dst': ['tag:server'], 'users': ['root']}]",
                        "action must be specified"),
                Arguments.of("'ssh': [{'action': 'deny', 'src': ['autogroup:member'], 'dst': ['tag:server'], 'users': ['root']}]",
                        "\"deny\" is not a valid action"),
                Arguments.of("'ssh': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['tag:server'], 'users': []}]",
                        "users must be specified"),
                Arguments.of("'ssh': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['tag:server'], 'users': ['*']}]",
                        "user \"*\" is not valid"),
                Arguments.of("'ssh': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['nas'], 'users': ['root']}]",
                        "invalid dst \"nas\""),
                Arguments.of("'ssh': [{'action': 'check', 'checkPeriod': '200h', 'src': ['autogroup:member'],"
                        + " 'dst': ['tag:server'], 'users': ['root']}]", "checkPeriod 200h0m0s is above the max (168h)"),
                Arguments.of("'ssh': [{'action': 'check', 'checkPeriod': '-1m', 'src': ['autogroup:member'],"
                        + " 'dst': ['tag:server'], 'users': ['root']}]", "checkPeriod -1m0s must be a positive duration"),
                Arguments.of("'ssh': [{'action': 'check', 'checkPeriod': 'abc', 'src': ['autogroup:member'],"
                        + " 'dst': ['tag:server'], 'users': ['root']}]", "time: invalid duration \"abc\""),
                Arguments.of("'ssh': [{'action': 'accept', 'acceptEnv': [''], 'src': ['autogroup:member'],"
                        + " 'dst': ['tag:server'], 'users': ['root']}]", "acceptEnv values cannot be empty"),
                // nodeAttrs, autoApprovers, sshTests
                Arguments.of("'nodeAttrs': [{'target': ['%bogus%'], 'attr': ['funnel']}]", "\"%bogus%\": invalid address"),
                Arguments.of("'nodeAttrs': [{'target': ['tag:nope'], 'attr': ['funnel']}]", "tag not found: \"tag:nope\""),
                Arguments.of("'nodeAttrs': [{'target': ['*'], 'ipPool': ['100.100.100.0/24']}]",
                        "IPPool(100.100.100.0/24): network within reserved range"),
                Arguments.of("'autoApprovers': {'routes': {'10.0.0.0/8': ['tag:nope']}}",
                        "autoApprovers.routes[\"10.0.0.0/8\"]: tag not found: \"tag:nope\""),
                Arguments.of("'autoApprovers': {'routes': {'ten': ['tag:router']}}",
                        "autoApprovers.routes[\"ten\"]: not a CIDR prefix"),
                Arguments.of("'autoApprovers': {'exitNode': 'tag:exit'}", "autoApprovers.exitNode: must be a list of strings"),
                Arguments.of("'sshTests': [{'src': 'alice@example.com', 'dst': ['tag:server:22'], 'accept': ['root']}]",
                        "SSH tests dst contains unknown tag \"tag:server:22\""),
                Arguments.of("'sshTests': [{'src': 'alice@example.com', 'dst': ['100.64.0.0/24'], 'accept': ['root']}]",
                        "SSH tests dst contains disallowed element \"100.64.0.0/24\""),
                // the file itself
                Arguments.of("'acl': []", "unknown field \"acl\""));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void badPoliciesAreRefusedWithTheVendorsWords(String sections, String error) {
        assertEquals(error, assertThrows(PolicyException.class, () -> Policy.parse(policy(sections))).getMessage());
    }

    static Stream<String> accepted() {
        return Stream.of(
                // the vendor's documented shapes
                "'acls': [{'action': 'accept', 'src': ['group:dev', 'alice@example.com'], 'dst': ['tag:server:22,80,443']}]",
                "'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['autogroup:self:*']}]",
                "'acls': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['autogroup:internet:*'], 'proto': 'tcp'}]",
                "'acls': [{'action': 'accept', 'users': ['nas'], 'ports': ['[fd7a:115c:a1e0::1]:22', 'office:1000-2000']}]",
                "'acls': [{'action': 'accept', 'src': ['100.64.0.0/24'], 'dst': ['fd7a:115c:a1e0::1:22'], 'proto': '17'}]",
                "'grants': [{'src': ['group:dev'], 'dst': ['tag:server'], 'ip': ['tcp:22', 'udp:53', '443', 'icmp:*']}]",
                "'grants': [{'src': ['autogroup:member'], 'dst': ['autogroup:internet'], 'ip': ['*'], 'via': ['tag:exit']}]",
                "'grants': [{'src': ['*'], 'dst': ['office'], 'ip': ['*'], 'via': ['tag:router']}]",
                "'grants': [{'src': ['autogroup:member'], 'dst': ['autogroup:self'],"
                        + " 'app': {'tailscale.com/cap/drive': [{'shares': ['*'], 'access': 'rw'}]}}]",
                "'grants': [{'src': ['autogroup:danger-all'], 'dst': ['tag:server'], 'ip': ['tcp:443']}]",
                "'ssh': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['autogroup:self'],"
                        + " 'users': ['autogroup:nonroot', 'root']}]",
                "'ssh': [{'action': 'check', 'checkPeriod': '12h', 'src': ['group:dev'], 'dst': ['tag:server'],"
                        + " 'users': ['localpart:*@example.com'], 'acceptEnv': ['GIT_*']}]",
                "'ssh': [{'action': 'check', 'checkPeriod': 'always', 'src': ['alice@example.com'],"
                        + " 'dst': ['tag:server'], 'users': ['ubuntu']}]",
                "'nodeAttrs': [{'target': ['autogroup:admin', 'tag:server'], 'attr': ['funnel', 'nextdns:abc123']},"
                        + " {'target': ['tag:router'], 'app': {'tailscale.com/app-connectors': [{'name': 'x'}]}}]",
                "'autoApprovers': {'routes': {'10.0.0.0/8': ['tag:router', 'group:dev']}, 'exitNode': ['tag:exit']}",
                "'tests': [{'src': 'alice@example.com', 'proto': 'tcp', 'accept': ['tag:server:22'], 'deny': ['nas:80']}],"
                        + " 'sshTests': [{'src': 'alice@example.com', 'dst': ['tag:server'], 'accept': ['root']}]",
                "'randomizeClientPort': true, 'postures': {'posture:latest': ['node:tsVersion >= \\'1.60\\'']}");
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void documentedShapesAreAccepted(String sections) {
        assertDoesNotThrow(() -> Policy.parse(policy(sections)));
    }

    @Test
    void whiteSpaceAroundAliasesAndActionsIsIgnoredAsTheVendorDoes() {
        Policy parsed = Policy.parse(policy("'ssh': [{'action': ' accept', 'src': [' group:dev'], 'dst': ['tag:server '],"
                + " 'users': ['\\troot']}]"));
        assertEquals(List.of("root"), parsed.ssh().getFirst().users());
        assertEquals("tag:server", parsed.ssh().getFirst().dst().getFirst().text());
    }

    @Test
    void sectionsAreKeptParsedForTheCompiler() {
        Policy parsed = Policy.parse(policy("'grants': [{'src': ['group:dev'], 'dst': ['tag:server'],"
                + " 'ip': ['tcp:22', 'udp:53'], 'via': ['tag:router'], 'app': {'example.com/cap/x': [{'a': 1}]}}],"
                + " 'ssh': [{'action': 'check', 'checkPeriod': 'always', 'src': ['group:dev'], 'dst': ['tag:server'],"
                + " 'users': ['root']}]"));
        Grant grant = parsed.grants().getFirst();
        assertEquals(List.of(new Grant.IpSpec(List.of(6), List.of(io.meshcontrol.core.wire.PortRange.of(22))),
                new Grant.IpSpec(List.of(17), List.of(io.meshcontrol.core.wire.PortRange.of(53)))), grant.ip());
        assertEquals(List.of("tag:router"), grant.via());
        assertEquals("[{\"a\":1}]", grant.app().get("example.com/cap/x").toString());
        assertEquals(Duration.ZERO, parsed.ssh().getFirst().checkPeriod(), "always: check every time");
        assertTrue(parsed.ssh().getFirst().check());
        assertEquals(null, parsed.acls(), "no acls section");
        assertFalse(parsed.allowsEverything(), "grants alone are the rules");
        assertTrue(Policy.parse("{}").allowsEverything(), "neither acls nor grants: allow all");
    }

    @Test
    void autoApproversAreKeptForTheRoutesCode() {
        Policy parsed = Policy.parse(policy("'autoApprovers': {'routes': {'10.0.0.0/8': ['tag:router', 'group:dev']},"
                + " 'exitNode': ['tag:exit']}"));
        assertEquals(List.of("tag:router", "group:dev"), parsed.autoApprovers().routes().get("10.0.0.0/8").approvers()
                .stream().map(Alias::text).toList());
        assertTrue(parsed.autoApprovers().routes().get("10.0.0.0/8").prefix().contains(IpBlock.parse("10.1.0.0/16")));
        assertEquals(List.of("tag:exit"), parsed.autoApprovers().exitNode().stream().map(Alias::text).toList());
    }

    @Test
    void aSyntaxErrorNamesTheLineAndColumnAsWritten() {
        String text = "{\n  // a comment\n  \"acls\": [\n    {\"action\": \"accept\" \"src\": [\"*\"]},\n  ],\n}\n";
        PolicyException refused = assertThrows(PolicyException.class, () -> Policy.parse(text));
        assertTrue(refused.getMessage().startsWith("parsing policy: line 4, column "), refused.getMessage());
    }
}
