package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The policy's autoApprovers applied to one machine, from the parsed section and the rules' alias resolution. */
class AutoApprovalTest {

    private static final PolicyUser ALICE = new PolicyUser(1, "alice", "alice@example.com", Role.MEMBER);
    private static final PolicyUser BOB = new PolicyUser(2, "bob", "", Role.MEMBER);
    private static final PolicyUser ADA = new PolicyUser(3, "ada", "ada@example.org", Role.ADMIN);

    private static final Policy POLICY = Policy.parse("""
            {
              // routers may bring their own subnets; alice and the ops group may add one of hers
              "groups": {"group:ops": ["bob@"]},
              "tagOwners": {"tag:router": ["alice@example.com"], "tag:exit": ["alice@example.com"],
                            "tag:other": ["alice@example.com"]},
              "autoApprovers": {
                "routes": {
                  "10.0.0.0/8": ["tag:router"],
                  "192.168.10.0/24": ["alice@example.com", "group:ops"],
                  "0.0.0.0/0": ["tag:other"],
                },
                "exitNode": ["tag:exit", "alice@"],
              },
            }
            """);

    private static List<IpPrefix> prefixes(String... texts) {
        return Arrays.stream(texts).map(IpPrefix::parse).toList();
    }

    private static PolicyNode machine(List<String> tags, PolicyUser owner) {
        return new PolicyNode(7, "m", "s7", tags.isEmpty() ? owner.id() : null, tags, "100.64.0.7",
                "fd7a:115c:a1e0::7", List.of());
    }

    private static AutoApproval approval(Policy policy, List<String> tags, PolicyUser owner) {
        return AutoApproval.of(policy, machine(tags, owner), tags.isEmpty() ? owner : null);
    }

    private static List<IpPrefix> approve(List<String> tags, PolicyUser owner, String... advertised) {
        return approval(POLICY, tags, owner).approve(prefixes(advertised), List.of());
    }

    @Test
    void routesInsideAnApproverPrefixAreApprovedAndOthersWait() {
        assertEquals(prefixes("10.20.0.0/16", "10.30.1.0/24"),
                approve(List.of("tag:router"), null, "10.20.0.0/16", "10.30.1.0/24", "172.16.0.0/12"));
        assertEquals(prefixes("10.0.0.0/8"), approve(List.of("tag:router"), null, "10.0.0.0/8"), "the prefix itself");
        assertEquals(List.of(), approve(List.of("tag:router"), null, "0.0.0.0/5"), "wider than the approver prefix");
    }

    @Test
    void usersAndGroupsApproveTheirOwnUntaggedMachinesOnly() {
        assertEquals(prefixes("192.168.10.0/24"), approve(List.of(), ALICE, "192.168.10.0/24"));
        assertEquals(prefixes("192.168.10.0/24"), approve(List.of(), BOB, "192.168.10.0/24"), "through group:ops");
        assertEquals(List.of(), approve(List.of("tag:router"), null, "192.168.10.0/24"), "a tagged machine has no user");
        assertEquals(List.of(), approve(List.of(), ALICE, "10.1.0.0/16"), "the tag's prefix is not alice's");
    }

    @ParameterizedTest(name = "{0} via {1}")
    @CsvSource({"0.0.0.0/0, tag:exit", "::/0, tag:exit", "0.0.0.0/0, ''"})
    void anExitNodeApprovedThroughEitherFamilyGetsBoth(String advertised, String tag) {
        List<String> tags = tag.isEmpty() ? List.of() : List.of(tag);
        assertEquals(prefixes("0.0.0.0/0", "::/0"), approve(tags, ALICE, advertised));
    }

    @Test
    void exitRoutesNeedExitNodeApproversNotASlashZeroRoute() {
        assertEquals(List.of(), approve(List.of("tag:other"), null, "0.0.0.0/0", "::/0"));
        assertEquals(prefixes("10.9.0.0/16"), approve(List.of("tag:other"), null, "10.9.0.0/16"),
                "a /0 entry covers every IPv4 subnet route");
        assertEquals(List.of(), approve(List.of(), BOB, "0.0.0.0/0", "::/0"), "bob is no exit approver");
    }

    @Test
    void autoApprovalKeepsWhatWasApprovedBefore() {
        assertEquals(prefixes("10.5.0.0/16"),
                approval(POLICY, List.of(), BOB).approve(prefixes("172.16.0.0/12"), prefixes("10.5.0.0/16")));
        assertEquals(prefixes("10.5.0.0/16"), approval(Policy.EMPTY, List.of(), BOB)
                .approve(prefixes("10.5.0.0/16", "172.16.0.0/12"), prefixes("10.5.0.0/16")), "no approvers");
    }

    /**
     * Approvers the parser accepts as aliases but the former second reader of the policy text took for logins that
     * name nobody: it never approved them. Now they cover what they cover in a rule.
     */
    @Test
    void autogroupsAndDomainsApproveAsTheyMatchInRules() {
        Policy policy = Policy.parse("""
                {
                  "tagOwners": {"tag:router": ["alice@example.com"]},
                  "autoApprovers": {
                    "routes": {"10.0.0.0/8": ["autogroup:member"], "172.16.0.0/12": ["user:*@example.org"]},
                    "exitNode": ["autogroup:admin"],
                  },
                }
                """);
        assertTrue(approval(policy, List.of(), ALICE).approvesRoute(IpPrefix.parse("10.1.0.0/16")),
                "autogroup:member covers every user's own machines");
        assertFalse(approval(policy, List.of("tag:router"), null).approvesRoute(IpPrefix.parse("10.1.0.0/16")),
                "but no tagged one");
        assertTrue(approval(policy, List.of(), ADA).approvesRoute(IpPrefix.parse("172.16.1.0/24")), "ada@example.org");
        assertFalse(approval(policy, List.of(), ALICE).approvesRoute(IpPrefix.parse("172.16.1.0/24")), "example.com");
        assertTrue(approval(policy, List.of(), ADA).approvesExitNode(), "ada is an admin");
        assertFalse(approval(policy, List.of(), BOB).approvesExitNode(), "bob is a member");
    }

    @Test
    void aBareUserNameIsAHostNameAndMustBeDefined() {
        PolicyException refused = assertThrows(PolicyException.class, () -> Policy.parse(
                "{\"autoApprovers\": {\"routes\": {\"10.0.0.0/8\": [\"alice\"]}}}"));
        assertEquals("autoApprovers.routes[\"10.0.0.0/8\"]: host not found: \"alice\"", refused.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"autoApprovers\": {\"routes\": {\"10.0.0/8\": [\"tag:a\"]}}}"
                + " | autoApprovers.routes[\"10.0.0/8\"]: not a CIDR prefix",
        "{\"autoApprovers\": {\"routes\": {\"10.0.0.0-10.0.0.9\": [\"tag:a\"]}}}"
                + " | autoApprovers.routes[\"10.0.0.0-10.0.0.9\"]: not a CIDR prefix",
        "{\"autoApprovers\": {\"routes\": {\"10.0.0.0/8\": [\"tag:nope\"]}}}"
                + " | autoApprovers.routes[\"10.0.0.0/8\"]: tag not found: \"tag:nope\"",
        "{\"autoApprovers\": {\"exitNode\": [\"group:nope\"]}}"
                + " | autoApprovers.exitNode: group not found: \"group:nope\"",
        "{\"autoApprovers\": {\"exitNode\": \"tag:a\"}} | autoApprovers.exitNode: must be a list of strings",
        "{\"autoApprovers\": []} | parsing policy: \"autoApprovers\" must be an object",
    })
    void badSectionsAreRefusedNamingTheEntry(String policy, String message) {
        PolicyException refused = assertThrows(PolicyException.class, () -> Policy.parse(policy));
        assertEquals(message, refused.getMessage());
    }
}
