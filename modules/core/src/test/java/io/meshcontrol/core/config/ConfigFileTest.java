package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigFileTest {

    @TempDir
    Path dir;

    private ConfigFixture fixture;

    @BeforeEach
    void fixture() {
        fixture = new ConfigFixture(dir);
    }

    @Test
    void readsNestedKeysIntoTheRecordTree() {
        LoadedConfig loaded = fixture.load("""
                server_url: https://mesh.example.com/
                listen_addr: 0.0.0.0:443
                metrics_listen_addr: 127.0.0.1:9191
                noise:
                  private_key_path: /var/lib/svc/noise.key
                database:
                  sqlite:
                    path: state/db.sqlite
                    write_ahead_log: false
                derp:
                  server:
                    enabled: false
                    verify_clients: false
                    stun_listen_addr: "[::]:3479"
                  urls: []
                dns:
                  base_domain: ts.example.net
                  nameservers:
                    global: [1.1.1.1, "https://dns.example.com/dns-query"]
                    split:
                      corp.example.com: [10.0.0.53]
                  extra_records:
                    - {name: grafana.ts.example.net, type: A, value: 100.64.0.3}
                policy:
                  mode: file
                  path: policy.hujson
                notifications:
                  smtp:
                    host: smtp.example.com
                    from: mesh@example.com
                cli:
                  address: mesh.example.com:8443
                """);
        assertEquals(List.of(), ConfigFixture.errors(loaded));
        assertEquals(List.of(), ConfigFixture.warnings(loaded));
        MeshConfig config = loaded.config();
        assertEquals("https://mesh.example.com", config.serverUrl(), "a trailing slash is dropped");
        assertEquals("0.0.0.0:443", config.listenAddr());
        assertEquals(Optional.of("127.0.0.1:9191"), config.metricsListenAddr());
        assertEquals(Path.of("/var/lib/svc/noise.key"), config.noise().privateKeyPath());
        assertEquals(dir.resolve("state/db.sqlite"), config.database().sqlite().path(), "relative to the working directory");
        assertFalse(config.database().sqlite().writeAheadLog());
        assertFalse(config.derp().server().enabled());
        assertFalse(config.derp().server().verifyClients());
        assertEquals("[::]:3479", config.derp().server().stunListenAddr());
        assertEquals(List.of(), config.derp().urls());
        assertEquals("ts.example.net", config.dns().baseDomain());
        assertEquals(List.of("1.1.1.1", "https://dns.example.com/dns-query"), config.dns().nameservers().global());
        assertEquals(Map.of("corp.example.com", List.of("10.0.0.53")), config.dns().nameservers().split());
        assertEquals(List.of(new MeshConfig.ExtraRecord("grafana.ts.example.net", "A", "100.64.0.3")), config.dns().extraRecords());
        assertEquals(MeshConfig.Policy.Mode.FILE, config.policy().mode());
        assertEquals(Optional.of(dir.resolve("policy.hujson")), config.policy().path());
        assertEquals(Optional.of("smtp.example.com"), config.notifications().smtp().host());
        assertEquals(Optional.of("mesh.example.com:8443"), config.cli().address());
    }

    @Test
    void nullMetricsListenAddrDisablesTheEndpoint() {
        LoadedConfig loaded = fixture.load("metrics_listen_addr: null\n");
        assertEquals(List.of(), loaded.errors());
        assertEquals(Optional.empty(), loaded.config().metricsListenAddr());
    }

    @Test
    void keyWithoutValueKeepsTheDefault() {
        LoadedConfig loaded = fixture.load("""
                listen_addr:
                derp:
                  urls:
                """);
        assertEquals(List.of(), loaded.errors());
        assertEquals("127.0.0.1:8080", loaded.config().listenAddr());
        assertEquals(List.of("https://controlplane.tailscale.com/derpmap/default"), loaded.config().derp().urls());
    }

    @Test
    void emptySectionsAreFine() {
        // headscale's example has "oidc:" with every line below commented out.
        LoadedConfig loaded = fixture.load("""
                oidc:
                #  issuer: https://login.example.com
                notifications: {}
                """);
        assertEquals(List.of(), loaded.errors());
        assertEquals(List.of(), loaded.warnings());
    }

    @Test
    void emptyFileMeansDefaults() {
        LoadedConfig loaded = fixture.load("# nothing yet\n");
        assertTrue(loaded.valid());
        assertEquals(Optional.of(dir.resolve("config.yaml")), loaded.source());
        assertEquals(MeshConfig.defaults().log(), loaded.config().log());
    }

    @Test
    void unknownKeysAreWarningsNamingTheKeyPath() {
        LoadedConfig loaded = fixture.load("""
                grpc_listen_addr: 127.0.0.1:50443
                derp:
                  server:
                    enabeld: true
                log:
                  levle: debug
                """);
        Path file = dir.resolve("config.yaml");
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(List.of(
                "unknown key grpc_listen_addr in " + file + " is ignored",
                "unknown key derp.server.enabeld in " + file + " is ignored (did you mean derp.server.enabled?)",
                "unknown key log.levle in " + file + " is ignored (did you mean log.level?)"), loaded.warnings());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "derp: {server: {region_id: abc}}|derp.server.region_id: must be a whole number (got \"abc\")",
            "derp: {server: {region_id: 1.5}}|derp.server.region_id: must be a whole number (got \"1.5\")",
            "derp: {server: {enabled: sometimes}}|derp.server.enabled: must be true or false (or 1/0, yes/no) (got \"sometimes\")",
            "listen_addr: [a, b]|listen_addr: must be a string, not a list",
            "server_url: {host: x}|server_url: must be a string, not a mapping",
            "derp: {urls: {a: b}}|derp.urls: must be a list of strings, not a mapping",
            "derp: {urls: [[a]]}|derp.urls: must be a list of strings; item 1 is a list",
            "oidc: {extra_params: [a]}|oidc.extra_params: must be a map of strings, not a list",
            "dns: {extra_records: [a]}|dns.extra_records: must be a list of objects; item 1 is \"a\"",
            "node: {expiry: 5}|node.expiry: must be a duration such as 90s, 30m or 720h: missing unit in duration \"5\" (use e.g. 5s)",
            "node: {expiry: 180d}|node.expiry: must be a duration such as 90s, 30m or 720h: unknown unit \"d\" in duration \"180d\" (Go durations have no days: use hours, e.g. 720h)",
            "node: {expiry: -1h}|node.expiry: must not be negative (got \"-1h\")",
            "database: {query_log: {slow_threshold: 1s}}|database.query_log.slow_threshold: must be a whole number of milliseconds (got \"1s\")",
            "database: {query_log: {slow_threshold: -5}}|database.query_log.slow_threshold: must not be negative (got -5)",
            "database: sqlite|database: must be a mapping of keys, not \"sqlite\"",
    })
    void wrongTypeNamesTheKey(String yaml, String message) {
        assertEquals(List.of(message), ConfigFixture.messages(fixture.load(yaml + "\n")));
    }

    @Test
    void yamlScalarsConvertWhereTheMeaningIsPlain() {
        LoadedConfig loaded = fixture.load("""
                derp:
                  server:
                    region_id: "900"
                    region_code: 42
                    enabled: "yes"
                node:
                  expiry: 0
                oidc:
                  scope: openid email
                """);
        assertEquals(List.of(), ConfigFixture.errors(loaded));
        assertEquals(900, loaded.config().derp().server().regionId());
        assertEquals("42", loaded.config().derp().server().regionCode());
        assertTrue(loaded.config().derp().server().enabled());
        assertEquals(Duration.ZERO, loaded.config().node().expiry());
        assertEquals(List.of("openid", "email"), loaded.config().oidc().scope(), "a string list may be written space-separated");
    }

    @Test
    void invalidYamlIsAnErrorNamingTheFileAndLine() {
        LoadedConfig loaded = fixture.load("log:\n  level: info\n bad: [\n");
        assertFalse(loaded.valid());
        String message = ConfigFixture.messages(loaded).get(0);
        assertTrue(message.startsWith(dir.resolve("config.yaml") + ": is not valid YAML at line "), message);
    }

    @Test
    void aliasesReadAsTheValuesTheirAnchorsMark() {
        LoadedConfig loaded = fixture.load("""
                server_url: &url https://mesh.example.com
                dns:
                  nameservers:
                    global: &resolvers [1.1.1.1, 9.9.9.9]
                    split:
                      corp.example.com: *resolvers
                derp:
                  server:
                    enabled: &on true
                    verify_clients: *on
                cli:
                  address: *url
                """);
        assertEquals(List.of(), ConfigFixture.messages(loaded));
        MeshConfig config = loaded.config();
        assertEquals(List.of("1.1.1.1", "9.9.9.9"), config.dns().nameservers().global());
        assertEquals(Map.of("corp.example.com", List.of("1.1.1.1", "9.9.9.9")), config.dns().nameservers().split());
        assertTrue(config.derp().server().verifyClients(), "a scalar alias keeps its type");
        assertEquals(Optional.of("https://mesh.example.com"), config.cli().address());
    }

    @Test
    void anAliasWithoutItsAnchorIsAnErrorNamingTheLine() {
        LoadedConfig loaded = fixture.load("log:\n  level: *level\n");
        assertEquals(List.of(dir.resolve("config.yaml") + ": is not valid YAML at line 2: invalid alias: level"),
                ConfigFixture.messages(loaded));
    }

    @Test
    void mergeKeysAreRefusedNamingTheKeyAndLine() {
        LoadedConfig loaded = fixture.load("""
                derp:
                  server: &relay
                    enabled: true
                oidc:
                  issuer: https://login.example.com
                notifications:
                  smtp:
                    <<: *relay
                    host: smtp.example.com
                """);
        assertEquals(List.of(dir.resolve("config.yaml") + ": key notifications.smtp at line 8: merge keys (<<) are"
                + " not supported; write the keys out, or use an alias for the whole value"),
                ConfigFixture.messages(loaded));
    }

    /**
     * The "billion laughs": each line ten times the one before, then a thousand aliases of the last line. Up to
     * {@code c} each line is small (a thousand values) and only the total is too big; up to {@code i} one line alone is.
     */
    @ParameterizedTest(name = "nesting up to {0}")
    @CsvSource({"c, 'laughs.all[7] at line 5'", "i, 'laughs.d[7] at line 5'"})
    void aliasesOfAliasesThatMultiplyAreRefused(char last, String alias) {
        StringBuilder yaml = new StringBuilder("laughs:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char level = 'b'; level <= last; level++) {
            String previous = "*" + (char) (level - 1);
            yaml.append("  ").append(level).append(": &").append(level).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, previous))).append("]\n");
        }
        yaml.append("  all: [").append(String.join(", ", java.util.Collections.nCopies(1000, "*" + last))).append("]\n");
        LoadedConfig loaded = fixture.load(yaml.toString());
        List<String> messages = ConfigFixture.messages(loaded);
        assertEquals(List.of(dir.resolve("config.yaml") + ": key " + alias + ": the aliases in this file expand to"
                + " more than 10000 values; write the values out instead of nesting aliases"), messages);
    }

    @Test
    void manyAliasesOfOneSmallValueAreFineUpToTheLimit() {
        String list = String.join(", ", java.util.Collections.nCopies(500, "*resolver"));
        LoadedConfig loaded = fixture.load("dns:\n  nameservers:\n    global: [&resolver 1.1.1.1, " + list + "]\n");
        assertEquals(List.of(), ConfigFixture.messages(loaded));
        assertEquals(501, loaded.config().dns().nameservers().global().size());
    }

    @Test
    void duplicateKeyIsAnError() {
        LoadedConfig loaded = fixture.load("log:\n  level: info\n  level: debug\n");
        assertEquals(List.of(dir.resolve("config.yaml") + ": is not valid YAML at line 3: key \"level\" appears twice"),
                ConfigFixture.messages(loaded));
    }

    @Test
    void topLevelMustBeAMapping() {
        LoadedConfig loaded = fixture.load("- a\n- b\n");
        assertEquals(List.of(dir.resolve("config.yaml") + ": must hold a mapping of keys at the top level"),
                ConfigFixture.messages(loaded));
    }

    @Test
    void relativePathsResolveAgainstTheWorkingDirectory() {
        LoadedConfig loaded = fixture.load("""
                noise:
                  private_key_path: keys/noise.key
                derp:
                  paths: [maps/local.yaml, /etc/svc/derp.yaml]
                """);
        MeshConfig config = loaded.config();
        assertEquals(dir.resolve("keys/noise.key"), config.noise().privateKeyPath());
        assertEquals(dir.resolve("keys/derp_server_private.key"), config.derp().server().privateKeyPath(),
                "the relay key lives beside the Noise key unless derp.server.private_key_path is set");
        assertEquals(List.of(dir.resolve("maps/local.yaml"), Path.of("/etc/svc/derp.yaml")), config.derp().paths());
        assertEquals(dir.resolve("data/db.sqlite"), config.database().sqlite().path(), "defaults resolve too");
    }

    @Test
    void explicitRelayKeyPathWins() {
        LoadedConfig loaded = fixture.load("derp:\n  server:\n    private_key_path: /keys/derp.key\n");
        assertEquals(Path.of("/keys/derp.key"), loaded.config().derp().server().privateKeyPath());
    }
}
