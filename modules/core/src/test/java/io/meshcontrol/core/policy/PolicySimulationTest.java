package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import tools.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** {@code svc policy simulate}'s network: the routes a node serves are the server's, auto-approvals included. */
class PolicySimulationTest {

    /** A host prefix as the source, covering a route the auto-approvers approve for the router. */
    private static final String POLICY = """
            {
              "hosts": {"internal": "10.0.0.0/8"},
              "tagOwners": {"tag:router": ["odin@example.com"], "tag:server": ["odin@example.com"]},
              "autoApprovers": {"routes": {"10.33.0.0/16": ["tag:router"]}},
              "acls": [{"action": "accept", "src": ["internal"], "dst": ["tag:server:22"]}],
            }
            """;

    private static ObjectNode simulate(String routerRoutes) {
        String network = """
                {"users": [{"name": "odin", "email": "odin@example.com", "role": "owner"}],
                 "nodes": [{"name": "laptop", "user": "odin@example.com", "ipv4": "100.64.0.1"},
                           {"name": "server", "tags": ["tag:server"], "ipv4": "100.64.0.2"},
                           {"name": "router", "tags": ["tag:router"], "ipv4": "100.64.0.3", %s}]}
                """.formatted(routerRoutes);
        Policy policy = Policy.parse(POLICY);
        PolicyInventory inventory = PolicySimulation.readInventory(network, policy);
        return PolicySimulation.simulate(CompiledPolicy.compile(policy, inventory, "https://unused"), inventory,
                null);
    }

    @Test
    void anAdvertisedRouteTheAutoApproversAllowIsServedAsOnTheServer() {
        ObjectNode out = simulate("\"advertisedRoutes\": [\"10.33.0.0/16\"], \"approvedRoutes\": []");
        assertEquals("[\"server\"]", out.path("router").path("peers").toString(),
                "the router serves a route inside the rule's source, so it reaches the destination");
        assertEquals("[\"router\"]", out.path("server").path("peers").toString());
        assertEquals("[]", out.path("laptop").path("peers").toString());
    }

    @Test
    void aRouteIsServedOnlyWhenAdvertisedAndApproved() {
        assertEquals("[]", simulate("\"advertisedRoutes\": [\"10.34.0.0/16\"], \"approvedRoutes\": []")
                .path("router").path("peers").toString(), "no approver covers 10.34.0.0/16");
        assertEquals("[]", simulate("\"advertisedRoutes\": [], \"approvedRoutes\": [\"10.34.0.0/16\"]")
                .path("router").path("peers").toString(), "approved but not advertised");
        assertEquals("[\"server\"]", simulate("\"advertisedRoutes\": [\"10.34.0.0/16\"], "
                + "\"approvedRoutes\": [\"10.34.0.0/16\"]").path("router").path("peers").toString());
        assertEquals("[\"server\"]", simulate("\"approvedRoutes\": [\"10.34.0.0/16\"]")
                .path("router").path("peers").toString(), "without advertisedRoutes a node advertises its approvals");
    }

    @Test
    void aNodesLocationAndClientInTheNetworkFileMeetPostureConditions() {
        Policy policy = Policy.parse("""
                {"tagOwners": {"tag:server": ["odin@example.com"]},
                 "postures": {"posture:uk": ["ip:country == 'GB'", "node:tsVersion >= '1.60'"]},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["tag:server:22"], "srcPosture": ["posture:uk"]}]}
                """);
        String network = """
                {"users": [{"name": "odin", "email": "odin@example.com", "role": "owner"}],
                 "nodes": [{"name": "london", "user": "odin", "ipv4": "100.64.0.1", "country": "gb", "city": "London",
                            "os": "linux", "tsVersion": "1.80.3"},
                           {"name": "paris", "user": "odin", "ipv4": "100.64.0.2", "country": "FR", "tsVersion": "1.80.3"},
                           {"name": "old", "user": "odin", "ipv4": "100.64.0.3", "country": "GB", "tsVersion": "1.58.0"},
                           {"name": "server", "tags": ["tag:server"], "ipv4": "100.64.0.9"}]}
                """;
        PolicyInventory inventory = PolicySimulation.readInventory(network, policy);
        ObjectNode out = PolicySimulation.simulate(CompiledPolicy.compile(policy, inventory, ""), inventory, null);
        assertEquals("[\"london\"]", out.path("server").path("peers").toString());
    }
}
