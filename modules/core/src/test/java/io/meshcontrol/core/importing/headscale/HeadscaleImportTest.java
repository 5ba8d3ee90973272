package io.meshcontrol.core.importing.headscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.state.NetworkImport;
import io.meshcontrol.core.testing.HeadscaleDatabaseFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeadscaleImportTest {

    /** URL-safe base64 like headscale's: a prefix and a secret may both hold dashes. */
    static final String PREFIX = "Ab-dEf_hIjKl";
    static final String SECRET = "s3cr-t_" + "x".repeat(57);
    static final String POLICY = """
            {"tagOwners": {"tag:server": ["alice@"]}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
            """;

    @TempDir
    Path folder;
    Path database;
    Path config;
    MachinePrivateKey noiseKey = MachinePrivateKey.generate();

    @BeforeEach
    void headscale() throws Exception {
        database = folder.resolve("db.sqlite");
        try (HeadscaleDatabaseFile hs = HeadscaleDatabaseFile.create(database)) {
            hs.user(1, "alice", "alice@example.com", null)
                    .user(2, "bob", "bob@example.com", "https://id.example.com/sub-bob")
                    .user(3, "carol smith", "", "https://elsewhere.example/carol");
            hs.preAuthKey(1, PREFIX, SECRET, 1L, "[]", true, false, "2099-01-01 00:00:00+00:00");
            hs.preAuthKey(2, "TaggedKey123", "t".repeat(64), null, "[\"tag:server\"]", false, true, null);
            hs.legacyPreAuthKey(3, "0123456789abcdef0123456789abcdef0123456789abcdef", 1);
            hs.apiKey(1, "ApiPrefix123");
            hs.node(1, 'a', "laptop", "100.64.0.1", "fd7a:115c:a1e0::1", 1L, "[]", 1L, "{\"Hostname\":\"laptop\"}",
                    "[]", null);
            hs.node(2, 'b', "router", "100.64.0.2", "fd7a:115c:a1e0::2", 1L, "[]", 1L,
                    "{\"RoutableIPs\":[\"10.77.0.0/16\"]}", "[\"10.77.0.0/16\"]", "0001-01-01 00:00:00+00:00");
            hs.node(3, 'c', "server", "100.64.0.3", "fd7a:115c:a1e0::3", null, "[\"tag:server\"]", 2L, "{}", "[]",
                    null);
            hs.node(4, 'd', "exit", "100.64.0.4", null, 2L, "[]", null,
                    "{\"RoutableIPs\":[\"0.0.0.0/0\",\"::/0\"]}", "[\"0.0.0.0/0\",\"::/0\"]",
                    "2099-02-03 04:05:06+00:00");
            hs.policy(POLICY);
        }
        Files.writeString(folder.resolve("noise_private.key"), noiseKey.toText() + "\n");
        config = Files.writeString(folder.resolve("config.yaml"), """
                server_url: https://hs.example.com
                listen_addr: 0.0.0.0:8080
                grpc_listen_addr: 0.0.0.0:50443
                noise:
                  private_key_path: %s
                prefixes:
                  v4: 100.64.0.0/10
                  v6: fd7a:115c:a1e0::/48
                database:
                  type: sqlite
                  sqlite:
                    path: /var/lib/headscale/db.sqlite
                policy:
                  mode: database
                dns:
                  magic_dns: true
                  base_domain: tail.example.com
                  nameservers:
                    global: [1.1.1.1]
                    split:
                      corp.example.com: [10.0.0.53]
                  extra_records:
                    - {name: grafana.tail.example.com, type: A, value: 100.64.0.9}
                node:
                  expiry: 180d
                  routes:
                    ha:
                      probe_interval: 15s
                oidc:
                  issuer: https://id.example.com/
                  client_id: headscale
                tuning:
                  batch_change_delay: 800ms
                logtail:
                  enabled: false
                """.formatted(folder.resolve("noise_private.key")));
    }

    private HeadscaleImport.Plan plan() {
        return HeadscaleImport.plan(database.toString(), config, null);
    }

    @Test
    void usersKeepTheirIdsNamesAndAddressesAndOidcUsersTheirIdentity() {
        HeadscaleImport.Plan plan = plan();
        List<User> users = plan.contents().users();
        assertEquals(List.of(1L, 2L, 3L), users.stream().map(User::id).toList());
        assertEquals("alice", users.get(0).name());
        assertEquals("alice@example.com", users.get(0).email());
        assertEquals("ALICE", users.get(0).displayName());
        // headscale joins issuer (without its trailing slash) and subject; the issuer from its config splits them
        assertEquals(List.of(new NetworkImport.Identity("https://id.example.com/", "sub-bob", 2)),
                plan.contents().identities());
        assertEquals("carol-smith", users.get(2).name(), "an invalid name is made valid");
        assertTrue(plan.problems().stream().anyMatch(p -> !p.blocker() && p.text().contains("carol-smith")),
                plan.problems().toString());
        assertTrue(plan.problems().stream().anyMatch(p -> p.text().contains("https://elsewhere.example/carol")
                && p.text().contains("matched by e-mail")), "an identity of another issuer is named");
    }

    @Test
    void nodesKeepKeysAddressesOwnersTagsRoutesAndExpiry() {
        List<Node> nodes = plan().contents().nodes();
        assertEquals(4, nodes.size());
        Node laptop = nodes.get(0);
        assertEquals(1, laptop.id());
        assertEquals("1", laptop.stableId(), "headscale's stable id: clients keep an exit node by it");
        assertEquals("mkey:" + "a".repeat(64), laptop.machineKey().toText());
        assertEquals("nodekey:" + "a".repeat(64), laptop.nodeKey().toText());
        assertEquals("discokey:" + "a".repeat(64), laptop.discoKey().toText());
        assertEquals("100.64.0.1", laptop.ipv4());
        assertEquals("fd7a:115c:a1e0::1", laptop.ipv6());
        assertEquals("laptop", laptop.givenName());
        assertEquals("LAPTOP", laptop.hostname());
        assertEquals(1L, laptop.userId());
        assertEquals(List.of("192.0.2.1:41641"), laptop.endpoints());
        assertEquals(Node.RegisterMethod.AUTH_KEY, laptop.registerMethod());
        assertEquals(1L, laptop.preAuthKeyId());
        assertTrue(laptop.authorized());
        assertNull(laptop.keyExpiry());
        assertTrue(laptop.keyExpiryDisabled(), "no expiry in headscale: none here either");
        assertEquals(Instant.parse("2026-01-02T03:04:05.123456789Z"), laptop.createdAt());

        Node router = nodes.get(1);
        assertEquals(List.of(IpPrefix.parse("10.77.0.0/16")), router.advertisedRoutes());
        assertEquals(List.of(IpPrefix.parse("10.77.0.0/16")), router.approvedRoutes());
        assertNull(router.keyExpiry(), "Go's zero time is no expiry");

        Node server = nodes.get(2);
        assertEquals(List.of("tag:server"), server.tags());
        assertNull(server.userId(), "a tagged node belongs to its tags");
        assertTrue(server.ephemeral(), "registered with an ephemeral key");

        Node exit = nodes.get(3);
        assertNull(exit.ipv6());
        assertEquals(Instant.parse("2099-02-03T04:05:06Z"), exit.keyExpiry());
        assertFalse(exit.keyExpiryDisabled());
        assertEquals(Node.RegisterMethod.INTERACTIVE, exit.registerMethod());
        assertEquals(2, exit.activeRoutes().size(), "both exit routes announced and approved");
    }

    @Test
    void hashedPreAuthKeysAreCarriedAndTheRestIsNamedWithWhatToDo() {
        HeadscaleImport.Plan plan = plan();
        List<PreAuthKey> keys = plan.contents().keys();
        assertEquals(List.of(1L, 2L), keys.stream().map(PreAuthKey::id).toList());
        PreAuthKey alices = keys.get(0);
        assertEquals(PREFIX, alices.prefix());
        assertTrue(alices.secretHash().startsWith("$2a$"), "headscale's bcrypt hash, kept as it is");
        assertEquals(1L, alices.userId());
        assertTrue(alices.reusable());
        assertTrue(alices.preauthorized());
        PreAuthKey tagged = keys.get(1);
        assertNull(tagged.userId());
        assertEquals(List.of("tag:server"), tagged.tags());
        assertEquals(HeadscaleImport.NO_EXPIRY, tagged.expiresAt(), "no expiry in headscale: none here either");
        assertTrue(plan.notCarried().stream().anyMatch(n -> n.startsWith("pre-auth key 3: an old plain-text key")
                && n.contains("svc preauthkeys create")), plan.notCarried().toString());
        assertFalse(plan.notCarried().toString().contains("0123456789abcdef"), "a plain-text secret is not shown");
        assertTrue(plan.notCarried().stream().anyMatch(n -> n.startsWith("API key hskey-api-ApiPrefix123")
                && n.contains("svc apikeys create")), plan.notCarried().toString());
    }

    @Test
    void thePolicyAndTheNoiseKeyComeAlong() {
        HeadscaleImport.Plan plan = plan();
        assertEquals(POLICY, plan.contents().policy());
        assertEquals(noiseKey.publicKey(), plan.noiseKey().orElseThrow().publicKey());
        assertFalse(plan.blocked(), plan.problems().toString());
    }

    @Test
    void theConfigurationIsMappedAndEveryKeyLeftBehindIsNamedWithWhy() {
        HeadscaleImport.Plan plan = plan();
        String yaml = plan.configYaml();
        assertTrue(yaml.contains("server_url: \"https://hs.example.com\""), yaml);
        assertTrue(yaml.contains("base_domain: \"tail.example.com\""), yaml);
        assertTrue(yaml.contains("corp.example.com:"), yaml);
        assertTrue(yaml.contains("grafana.tail.example.com"), yaml);
        assertTrue(yaml.contains("ha_probe_interval: \"15s\""), "renamed: " + yaml);
        assertTrue(yaml.contains("issuer: \"https://id.example.com/\""), yaml);
        assertTrue(yaml.contains("override_local_dns: true"), "headscale's default, which differs from ours: " + yaml);
        assertTrue(yaml.contains("update_frequency: \"3h\""), yaml);
        assertTrue(yaml.contains("expiry: \"4320h\""), "days become hours: " + yaml);
        assertTrue(yaml.contains("oidc:") && yaml.split("expiry: \"4320h\"").length == 3,
                "OIDC machines keep node.expiry, as in headscale 0.29: " + yaml);
        assertFalse(yaml.contains("/var/lib/headscale/db.sqlite\"\n"), "svc keeps its own database: " + yaml);
        for (String key : List.of("grpc_listen_addr", "database.sqlite.path", "noise.private_key_path",
                "tuning.batch_change_delay", "logtail.enabled", "policy.mode")) {
            assertTrue(plan.notCarried().stream().anyMatch(n -> n.startsWith("config " + key + ": ")),
                    key + " named: " + plan.notCarried());
            assertTrue(yaml.contains("#   " + key + ": "), key + " named in the file: " + yaml);
        }
    }

    @Test
    void aDryRunIsBlockedByNodesThatCannotBothBeKeptAndByAPolicyThatIsNotValidHere() throws Exception {
        Path other = folder.resolve("other.sqlite");
        try (HeadscaleDatabaseFile hs = HeadscaleDatabaseFile.create(other)) {
            hs.user(1, "alice", "", null);
            hs.node(1, 'a', "one", "100.64.0.1", null, 1L, "[]", null, "{}", "[]", null);
            hs.node(2, 'b', "two", "100.64.0.1", null, 1L, "[]", null, "{}", "[]", null);
        }
        Path policy = Files.writeString(folder.resolve("bad.hujson"), "{\"acls\": [{\"action\": \"drop\"}]}");
        HeadscaleImport.Plan plan = HeadscaleImport.plan(other.toString(), null, policy);
        assertTrue(plan.blocked());
        assertTrue(plan.problems().stream().anyMatch(p -> p.blocker() && p.text().startsWith("node 2 two")
                && p.text().contains("same address 100.64.0.1 as node 1")), plan.problems().toString());
        assertTrue(plan.problems().stream().anyMatch(p -> p.blocker() && p.text().startsWith("the policy is not valid")),
                plan.problems().toString());
        assertTrue(plan.problems().stream().anyMatch(p -> !p.blocker() && p.text().startsWith("no --config")),
                plan.problems().toString());
    }

    @Test
    void aPostgresqlSourceIsRefusedWithWhatToDoInstead() {
        MeshException refused = assertThrows(MeshException.class,
                () -> HeadscaleImport.plan("postgres://headscale@db/headscale", null, null));
        assertTrue(refused.getMessage().contains("not supported yet"), refused.getMessage());
        MeshException notHeadscale = assertThrows(MeshException.class,
                () -> HeadscaleImport.plan(folder.resolve("none.sqlite").toString(), null, null));
        assertTrue(notHeadscale.getMessage().startsWith("no headscale database at"), notHeadscale.getMessage());
    }

    @Test
    void durationsInDaysWeeksAndYearsBecomeHours() {
        tools.jackson.databind.node.JsonNodeFactory json = tools.jackson.databind.node.JsonNodeFactory.instance;
        assertEquals("4320h", HeadscaleConfig.durationInHours("node.expiry", json.stringNode("180d")).asString());
        assertEquals("228h30m", HeadscaleConfig.durationInHours("node.expiry", json.stringNode("1w2d12h30m"))
                .asString());
        assertEquals("8760h", HeadscaleConfig.durationInHours("node.expiry", json.stringNode("1y")).asString());
        assertEquals("0s", HeadscaleConfig.durationInHours("node.expiry", json.stringNode("0")).asString());
        assertEquals("90s", HeadscaleConfig.durationInHours("node.expiry", json.stringNode("90s")).asString());
        assertEquals("180d", HeadscaleConfig.durationInHours("server_url", json.stringNode("180d")).asString(),
                "only durations");
    }

    @Test
    void timesAreReadInEveryFormHeadscalesDriversWrite() {
        Instant expected = Instant.parse("2026-01-02T03:04:05.5Z");
        assertEquals(expected, HeadscaleDatabase.parseTime("2026-01-02 03:04:05.5+00:00"));
        assertEquals(expected, HeadscaleDatabase.parseTime("2026-01-02T03:04:05.5Z"));
        assertEquals(expected, HeadscaleDatabase.parseTime("2026-01-02 03:04:05.5 +0000 UTC"));
        assertEquals(Instant.parse("2026-01-02T03:04:05Z"), HeadscaleDatabase.parseTime("1767323045"));
        assertNull(HeadscaleDatabase.parseTime("0001-01-01 00:00:00+00:00"), "Go's zero time: not set");
        assertNull(HeadscaleDatabase.parseTime(null));
        assertThrows(MeshException.class, () -> HeadscaleDatabase.parseTime("yesterday"));
    }
}
