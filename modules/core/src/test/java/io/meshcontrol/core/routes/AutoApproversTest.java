package io.meshcontrol.core.routes;

import static io.meshcontrol.core.routes.Machines.node;
import static io.meshcontrol.core.routes.Machines.prefixes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AutoApproversTest {

    private static final User ALICE = new User(1, "alice", "", "alice@example.com", Role.MEMBER, Instant.EPOCH);
    private static final User BOB = new User(1, "bob", "", "", Role.MEMBER, Instant.EPOCH);

    private static final AutoApprovers APPROVERS = PolicyAutoApprovers.from(Policy.parse("""
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
            """));

    private static List<IpPrefix> approve(List<String> tags, User owner, String... advertised) {
        Node node = node(1, tags, prefixes(advertised), List.of());
        return APPROVERS.approve(node, tags.isEmpty() ? owner : null);
    }

    @Test
    void routesInsideAnApproverPrefixAreApprovedAndOthersWait() {
        assertEquals(prefixes("10.20.0.0/16", "10.30.1.0/24"),
                approve(List.of("tag:router"), null, "10.20.0.0/16", "10.30.1.0/24", "172.16.0.0/12"));
        assertEquals(prefixes("10.0.0.0/8"), approve(List.of("tag:router"), null, "10.0.0.0/8"), "the prefix itself");
        assertEquals(List.of(), approve(List.of("tag:router"), null, "0.0.0.0/5"), "wider than the approver prefix");
    }

    @Test
    void usersAndGroupsApproveTheirOwnUntaggedNodesOnly() {
        assertEquals(prefixes("192.168.10.0/24"), approve(List.of(), ALICE, "192.168.10.0/24"));
        assertEquals(prefixes("192.168.10.0/24"), approve(List.of(), BOB, "192.168.10.0/24"), "through group:ops");
        assertEquals(List.of(), approve(List.of("tag:router"), null, "192.168.10.0/24"), "a tagged node has no user");
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
        Node node = node(1, List.of(), prefixes("172.16.0.0/12"), prefixes("10.5.0.0/16"));
        assertEquals(prefixes("10.5.0.0/16"), APPROVERS.approve(node, BOB));
        assertEquals(prefixes("10.5.0.0/16"), AutoApprovers.NONE.approve(node, BOB));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"autoApprovers\": {\"routes\": {\"10.0.0/8\": [\"tag:a\"]}}}"
                + " | autoApprovers.routes[\"10.0.0/8\"]: not a CIDR prefix",
        "{\"autoApprovers\": {\"routes\": {\"10.0.0.0/8\": [\"tag:nope\"]}}}"
                + " | autoApprovers.routes[\"10.0.0.0/8\"]: tag not found: \"tag:nope\"",
        "{\"autoApprovers\": {\"exitNode\": [\"group:nope\"]}}"
                + " | autoApprovers.exitNode: group not found: \"group:nope\"",
        "{\"autoApprovers\": {\"exitNode\": \"tag:a\"}} | autoApprovers.exitNode: must be a list of strings",
        "{\"autoApprovers\": []} | parsing policy: \"autoApprovers\" must be an object",
    })
    void badSectionsAreRefusedNamingTheEntry(String policy, String message) {
        PolicyException refused = assertThrows(PolicyException.class,
                () -> PolicyAutoApprovers.from(Policy.parse(policy)));
        assertEquals(message, refused.getMessage());
    }
}
