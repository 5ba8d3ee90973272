package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Role;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * How long compiling a policy takes at the scale the design targets: 10,000 machines and 1,000 rules. Prints
 * figures (a benchmark never fails a build on time); run with {@code -Dsvc.bench=true -Dtest=PolicyCompileBenchmark}.
 */
@EnabledIfSystemProperty(named = "svc.bench", matches = "true")
class PolicyCompileBenchmark {

    private static final int USERS = 2_000;
    private static final int MACHINES_PER_USER = 4;
    private static final int TAGS = 50;
    private static final int TAGGED = 1_980;
    private static final int ROUTERS = 20;
    private static final int GROUPS = 100;

    @Test
    void tenThousandMachinesAThousandRules() {
        PolicyInventory inventory = inventory();
        String first = policy(0);
        String second = policy(1);
        System.out.printf("policy compile: %d machines, %d users, %d rules%n", inventory.nodes().size(),
                inventory.users().size(), 1_000);
        for (int round = 0; round < 3; round++) {
            measure("round " + round + " policy A", Policy.parse(first), inventory);
            measure("round " + round + " policy B", Policy.parse(second), inventory);
        }
    }

    private static void measure(String label, Policy policy, PolicyInventory inventory) {
        long start = System.nanoTime();
        CompiledPolicy compiled = CompiledPolicy.compile(policy, inventory, "https://control.example");
        long compiledAt = System.nanoTime();
        long rules = 0;
        long peers = 0;
        for (PolicyNode node : inventory.nodes()) {
            rules += compiled.packetFilter(node.id()).size();
        }
        long filtersAt = System.nanoTime();
        for (PolicyNode node : inventory.nodes()) {
            peers += compiled.peers(node.id()).size();
        }
        long peersAt = System.nanoTime();
        for (PolicyNode node : inventory.nodes()) {
            compiled.sshPolicy(node.id());
            compiled.capMap(node.id());
        }
        long sshAt = System.nanoTime();
        int checks = 0;
        for (PolicyNode a : inventory.nodes().subList(0, 100)) {
            for (PolicyNode b : inventory.nodes()) {
                checks += compiled.sees(a.id(), b.id()) ? 1 : 0;
            }
        }
        long pairsAt = System.nanoTime();
        System.out.printf("  %s: compile %d ms, all filters %d ms (%d rules), all peer sets %d ms (%d peers), "
                        + "all SSH policies and CapMaps %d ms, 1,000,000 pair checks %d ms%n", label,
                ms(start, compiledAt), ms(compiledAt, filtersAt), rules, ms(filtersAt, peersAt), peers,
                ms(peersAt, sshAt), ms(sshAt, pairsAt));
        assertTrue(rules > 0 && peers > 0 && checks > 0);
        assertFalse(compiled.packetFilter(inventory.nodes().getFirst().id()).isEmpty());
    }

    private static long ms(long from, long to) {
        return (to - from) / 1_000_000;
    }

    private static PolicyInventory inventory() {
        List<PolicyUser> users = new ArrayList<>();
        List<PolicyNode> nodes = new ArrayList<>();
        for (int u = 1; u <= USERS; u++) {
            users.add(new PolicyUser(u, "user" + u, "user" + u + "@example.com", u == 1 ? Role.OWNER : Role.MEMBER));
            for (int m = 0; m < MACHINES_PER_USER; m++) {
                nodes.add(node(nodes.size() + 1, (long) u, List.of(), List.of()));
            }
        }
        for (int t = 0; t < TAGGED; t++) {
            List<String> routes = t < ROUTERS ? List.of("10." + t + ".0.0/16") : t == ROUTERS
                    ? List.of("0.0.0.0/0", "::/0") : List.of();
            nodes.add(node(nodes.size() + 1, null, List.of("tag:t" + (t % TAGS)), routes));
        }
        return new PolicyInventory(users, nodes);
    }

    private static PolicyNode node(int id, Long user, List<String> tags, List<String> routes) {
        String v4 = "100.64." + (id / 256) + "." + (id % 256);
        return new PolicyNode(id, "m" + id, "n" + id, user, tags, v4, "fd7a:115c:a1e0::" + Integer.toHexString(id),
                routes);
    }

    /** 100 groups, 50 tags; 600 acls and 400 grants of varied shapes; {@code variant} shifts ports. */
    private static String policy(int variant) {
        StringBuilder out = new StringBuilder("{\"groups\": {");
        for (int g = 0; g < GROUPS; g++) {
            out.append(g == 0 ? "" : ",").append("\"group:g").append(g).append("\": [");
            for (int m = 0; m < 40; m++) {
                out.append(m == 0 ? "" : ",").append("\"user").append(1 + (g * 17 + m * 13) % USERS)
                        .append("@example.com\"");
            }
            out.append(']');
        }
        out.append("}, \"tagOwners\": {");
        for (int t = 0; t < TAGS; t++) {
            out.append(t == 0 ? "" : ",").append("\"tag:t").append(t).append("\": []");
        }
        out.append("}, \"acls\": [");
        for (int r = 0; r < 600; r++) {
            String src = r % 10 == 0 ? "autogroup:member" : "group:g" + (r % GROUPS);
            String dst = switch (r % 5) {
                case 0 -> "tag:t" + (r % TAGS) + ":" + (1000 + r + variant);
                case 1 -> "10." + (r % ROUTERS) + ".1.0/24:443";
                case 2 -> "autogroup:self:" + (22 + variant);
                case 3 -> "group:g" + ((r + 1) % GROUPS) + ":" + (8000 + r);
                default -> "tag:t" + (r % TAGS) + ":*";
            };
            out.append(r == 0 ? "" : ",").append("{\"action\": \"accept\", \"src\": [\"").append(src)
                    .append("\"], \"dst\": [\"").append(dst).append("\"]}");
        }
        out.append("], \"grants\": [");
        for (int r = 0; r < 400; r++) {
            String src = r % 7 == 0 ? "tag:t" + (r % TAGS) : "group:g" + (r % GROUPS);
            String dst = r % 4 == 0 ? "autogroup:internet" : "tag:t" + ((r + 3) % TAGS);
            out.append(r == 0 ? "" : ",").append("{\"src\": [\"").append(src).append("\"], \"dst\": [\"").append(dst)
                    .append("\"], \"ip\": [\"tcp:").append(2000 + r + variant).append("\", \"udp:53\"]}");
        }
        out.append("], \"ssh\": [{\"action\": \"accept\", \"src\": [\"autogroup:member\"], \"dst\": [\"autogroup:self\"],"
                + " \"users\": [\"autogroup:nonroot\"]}, {\"action\": \"check\", \"src\": [\"group:g1\"],"
                + " \"dst\": [\"tag:t1\"], \"users\": [\"root\"]}]}");
        return out.toString();
    }
}
