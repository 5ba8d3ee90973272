package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.NetworkSnapshot;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A network made up in memory, the same for every run (fixed seed): {@code nodes} nodes spread over
 * {@code users} users, every fifth node tagged with one of {@link #TAGS} tags, each node with a Hostinfo like a
 * Linux client's and two endpoints. Keys are random bytes (map building never checks they are on the curve).
 */
public final class SyntheticNetwork {

    public static final int TAGS = 100;
    public static final int GROUPS = 100;
    public static final int HOSTS = 50;
    private static final Instant CREATED = Instant.parse("2026-11-01T00:00:00Z");

    private SyntheticNetwork() {
    }

    public static NetworkSnapshot snapshot(int nodes, int users) {
        Random random = new Random(42);
        Map<Long, User> userMap = new HashMap<>();
        for (long u = 1; u <= users; u++) {
            userMap.put(u, new User(u, "user" + u, "User " + u, "user" + u + "@example.com", Role.MEMBER, CREATED,
                    true));
        }
        Map<Long, Node> nodeMap = new HashMap<>();
        for (long id = 1; id <= nodes; id++) {
            NodePublicKey nodeKey = NodePublicKey.fromRaw(bytes(random));
            boolean tagged = id % 5 == 0;
            String host = "node-" + id;
            Node node = new Node(id, "n" + Long.toHexString(0x1000000 + id) + "CNTRL", MachinePublicKey.fromRaw(bytes(random)),
                    nodeKey, DiscoPublicKey.fromRaw(bytes(random)), host, host,
                    tagged ? null : 1 + (id - 1) % users, tagged ? List.of("tag:t" + (id % TAGS)) : List.of(),
                    "100.64." + (id >> 8 & 0xff) + "." + (id & 0xff), "fd7a:115c:a1e0::" + Long.toHexString(id),
                    hostinfo(host, random), List.of("198.18." + (id >> 8 & 0xff) + "." + (id & 0xff) + ":41641",
                            "10.1." + (id >> 8 & 0xff) + "." + (id & 0xff) + ":41641"),
                    true, false, 1L, Node.RegisterMethod.AUTH_KEY, CREATED, CREATED.plusSeconds(id), null, List.of(), List.of(), false, null,
                    false);
            nodeMap.put(id, node);
        }
        return NetworkSnapshot.of(1, nodeMap.values(), userMap.values());
    }

    /**
     * A policy of {@code rules} rules over the snapshot's aliases: groups of users, tags, hosts, single users
     * and autogroup:self, in turn, so that compiling it resolves every kind of alias.
     */
    public static String policy(int rules, int users) {
        StringBuilder text = new StringBuilder("{\n  \"groups\": {\n");
        for (int g = 0; g < GROUPS; g++) {
            text.append("    \"group:g").append(g).append("\": [");
            for (int k = 0; k < 10; k++) {
                text.append(k > 0 ? ", " : "").append("\"user").append(1 + (g * 10 + k) % users).append("@example.com\"");
            }
            text.append("],\n");
        }
        text.append("  },\n  \"tagOwners\": {\n");
        for (int t = 0; t < TAGS; t++) {
            text.append("    \"tag:t").append(t).append("\": [\"group:g").append(t % GROUPS).append("\"],\n");
        }
        text.append("  },\n  \"hosts\": {\n");
        for (int h = 0; h < HOSTS; h++) {
            text.append("    \"h").append(h).append("\": \"192.0.2.").append(h).append("\",\n");
        }
        text.append("  },\n  \"acls\": [\n");
        for (int i = 0; i < rules; i++) {
            String src;
            String dst;
            switch (i % 5) {
                case 0 -> { src = "group:g" + i % GROUPS; dst = "tag:t" + i % TAGS + ":80,443"; }
                case 1 -> { src = "user" + (1 + i % users) + "@example.com"; dst = "tag:t" + (i + 1) % TAGS + ":22"; }
                case 2 -> { src = "tag:t" + i % TAGS; dst = "tag:t" + (i + 7) % TAGS + ":8000-8100"; }
                case 3 -> { src = "autogroup:member"; dst = "autogroup:self:*"; }
                default -> { src = "group:g" + i % GROUPS; dst = "h" + i % HOSTS + ":*"; }
            }
            text.append("    {\"action\": \"accept\", \"src\": [\"").append(src).append("\"], \"dst\": [\"").append(dst)
                    .append("\"]},\n");
        }
        return text.append("  ],\n}\n").toString();
    }

    private static String hostinfo(String host, Random random) {
        return "{\"IPNVersion\":\"1.102.5-t0123456789-g0123456789\",\"BackendLogID\":\"" + hex(random, 32)
                + "\",\"OS\":\"linux\",\"OSVersion\":\"Debian 12.8 (bookworm); kernel=6.1.0-28-amd64\",\"Distro\":\"debian\","
                + "\"DistroVersion\":\"12.8\",\"DistroCodeName\":\"bookworm\",\"Hostname\":\"" + host + "\","
                + "\"Machine\":\"x86_64\",\"GoArch\":\"amd64\",\"GoVersion\":\"go1.26.8\",\"RoutableIPs\":null,"
                + "\"Services\":[{\"Proto\":\"peerapi4\",\"Port\":40123},{\"Proto\":\"peerapi6\",\"Port\":40123}],"
                + "\"NetInfo\":{\"MappingVariesByDestIP\":false,\"WorkingIPv6\":false,\"WorkingUDP\":true,"
                + "\"WorkingICMPv4\":true,\"PreferredDERP\":999,\"LinkType\":\"wired\","
                + "\"DERPLatency\":{\"999-v4\":0.0123}},\"Userspace\":false,\"UserspaceRouter\":false}";
    }

    private static byte[] bytes(Random random) {
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        return raw;
    }

    private static String hex(Random random, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append(Character.forDigit(random.nextInt(16), 16));
        }
        return s.toString();
    }
}
