package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class EnvironmentOverrideTest {

    @TempDir
    Path dir;

    private ConfigFixture fixture;

    @BeforeEach
    void fixture() {
        fixture = new ConfigFixture(dir);
    }

    static Stream<Arguments> overrides() {
        return Stream.of(
                arguments("SVC_SERVER_URL", "https://mesh.example.com", f(MeshConfig::serverUrl), "https://mesh.example.com"),
                arguments("SVC_DATABASE_SQLITE_PATH", "/var/lib/svc/db.sqlite",
                        f(c -> c.database().sqlite().path()), Path.of("/var/lib/svc/db.sqlite")),
                arguments("SVC_DATABASE_SQLITE_WRITE_AHEAD_LOG", "false", f(c -> c.database().sqlite().writeAheadLog()), false),
                arguments("SVC_LOG_LEVEL", "debug", f(c -> c.log().level()), LogLevel.DEBUG),
                arguments("SVC_LOG_LEVEL", "TRACE", f(c -> c.log().level()), LogLevel.TRACE),
                arguments("SVC_DERP_SERVER_REGION_ID", "900", f(c -> c.derp().server().regionId()), 900),
                arguments("SVC_DERP_URLS", "https://a.example.com/derp.json  https://b.example.com/derp.json",
                        f(c -> c.derp().urls()), List.of("https://a.example.com/derp.json", "https://b.example.com/derp.json")),
                arguments("SVC_OIDC_EXTRA_PARAMS", "{\"domain_hint\": \"example.com\", \"prompt\": \"login\"}",
                        f(c -> c.oidc().extraParams()), Map.of("domain_hint", "example.com", "prompt", "login")),
                arguments("SVC_DNS_NAMESERVERS_SPLIT", "{\"corp.example.com\": [\"10.0.0.53\", \"10.0.1.53\"]}",
                        f(c -> c.dns().nameservers().split()), Map.of("corp.example.com", List.of("10.0.0.53", "10.0.1.53"))),
                arguments("SVC_DNS_EXTRA_RECORDS", "[{\"name\": \"grafana.mesh.internal\", \"type\": \"A\", \"value\": \"100.64.0.3\"}]",
                        f(c -> c.dns().extraRecords()),
                        List.of(new MeshConfig.ExtraRecord("grafana.mesh.internal", "A", "100.64.0.3"))),
                arguments("SVC_NODE_EXPIRY", "720h", f(c -> c.node().expiry()), Duration.ofDays(30)),
                arguments("SVC_NODE_EPHEMERAL_INACTIVITY_TIMEOUT", "1h30m",
                        f(c -> c.node().ephemeral().inactivityTimeout()), Duration.ofMinutes(90)),
                arguments("SVC_CLIENT_UPDATES_INTERVAL", "1.5h", f(c -> c.clientUpdates().interval()), Duration.ofMinutes(90)),
                arguments("SVC_DATABASE_QUERY_LOG_SLOW_THRESHOLD", "250",
                        f(c -> c.database().queryLog().slowThreshold()), Duration.ofMillis(250)),
                arguments("SVC_CLI_ADDRESS", "mesh.example.com", f(c -> c.cli().address()), Optional.of("mesh.example.com")),
                arguments("SVC_CLI_API_KEY", "svc_key_123", f(c -> c.cli().apiKey()), Optional.of("svc_key_123")),
                arguments("SVC_CLI_INSECURE", "1", f(c -> c.cli().insecure()), true),
                arguments("SVC_NOTIFICATIONS_SMTP_ENCRYPTION", "tls",
                        f(c -> c.notifications().smtp().encryption()), MeshConfig.Smtp.Encryption.TLS),
                arguments("SVC_METRICS_LISTEN_ADDR", "0.0.0.0:9191", f(MeshConfig::metricsListenAddr), Optional.of("0.0.0.0:9191")),
                arguments("SVC_CONTROL_DIAL_PLAN", "203.0.113.7 2001:db8::7",
                        f(MeshConfig::controlDialPlan), List.of("203.0.113.7", "2001:db8::7")),
                arguments("SVC_DEBUG_NODE_API_ENABLED", "yes", f(c -> c.debug().nodeApiEnabled()), true),
                arguments("SVC_EGRESS_DENY_PRIVATE_TARGETS", "true", f(c -> c.egress().denyPrivateTargets()), true));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("overrides")
    void variableSetsItsKey(String variable, String value, Function<MeshConfig, Object> read, Object expected) {
        LoadedConfig loaded = fixture.loadEnv(Map.of(variable, value));
        assertEquals(List.of(), ConfigFixture.errors(loaded));
        assertEquals(expected, read.apply(loaded.config()));
    }

    /** Rule 4: the empty string is an explicit empty value of the key's type, never "use the default". */
    static Stream<Arguments> emptyValues() {
        return Stream.of(
                arguments("SVC_ACME_EMAIL", f(c -> c.tls().letsEncrypt().acmeEmail()), ""),
                arguments("SVC_DERP_URLS", f(c -> c.derp().urls()), List.of()),
                arguments("SVC_OIDC_SCOPE", f(c -> c.oidc().scope()), List.of()),
                arguments("SVC_OIDC_EXTRA_PARAMS", f(c -> c.oidc().extraParams()), Map.of()),
                arguments("SVC_DNS_NAMESERVERS_SPLIT", f(c -> c.dns().nameservers().split()), Map.of()),
                arguments("SVC_DNS_EXTRA_RECORDS", f(c -> c.dns().extraRecords()), List.of()),
                arguments("SVC_NODE_EXPIRY", f(c -> c.node().expiry()), Duration.ZERO),
                arguments("SVC_OIDC_EXPIRY", f(c -> c.oidc().expiry()), Duration.ZERO),
                arguments("SVC_DATABASE_QUERY_LOG_SLOW_THRESHOLD", f(c -> c.database().queryLog().slowThreshold()), Duration.ZERO),
                arguments("SVC_DERP_SERVER_ENABLED", f(c -> c.derp().server().enabled()), false),
                arguments("SVC_CLIENT_UPDATES_CHECK", f(c -> c.clientUpdates().check()), false),
                arguments("SVC_NOTIFICATIONS_SMTP_PORT", f(c -> c.notifications().smtp().port()), 0),
                arguments("SVC_METRICS_LISTEN_ADDR", f(MeshConfig::metricsListenAddr), Optional.empty()),
                arguments("SVC_PREFIXES_V6", f(c -> c.prefixes().v6()), ""));
    }

    @ParameterizedTest(name = "{0}=\"\"")
    @MethodSource("emptyValues")
    void emptyStringIsAnExplicitEmptyValue(String variable, Function<MeshConfig, Object> read, Object expected) {
        String yaml = """
                acme_email: admin@example.com
                metrics_listen_addr: 127.0.0.1:9999
                """;
        LoadedConfig loaded = fixture.load(yaml, Map.of(variable, ""));
        assertEquals(List.of(), ConfigFixture.errors(loaded));
        assertEquals(expected, read.apply(loaded.config()));
    }

    @ParameterizedTest(name = "SVC_CLI_INSECURE={0} is {1}")
    @CsvSource({"true, true", "TRUE, true", "1, true", "yes, true", "Yes, true",
            "false, false", "False, false", "0, false", "no, false", "NO, false"})
    void booleansAcceptTheUsualLiterals(String text, boolean expected) {
        LoadedConfig loaded = fixture.loadEnv(Map.of("SVC_CLI_INSECURE", text));
        assertEquals(List.of(), loaded.errors());
        assertEquals(expected, loaded.config().cli().insecure());
    }

    @Test
    void variableBeatsFileAndFileBeatsDefault() {
        String yaml = """
                log:
                  level: warn
                  format: json
                """;
        LoadedConfig loaded = fixture.load(yaml, Map.of("SVC_LOG_LEVEL", "trace"));
        assertEquals(LogLevel.TRACE, loaded.config().log().level(), "the variable beats the file");
        assertEquals(MeshConfig.Log.Format.JSON, loaded.config().log().format(), "the file beats the default");
        assertEquals(Duration.ofMinutes(30), loaded.config().node().ephemeral().inactivityTimeout(), "the default stays");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "SVC_LOG_LEVEL|loud|log.level: must be one of panic, fatal, error, warn, info, debug, trace (got \"loud\"); set by SVC_LOG_LEVEL",
            "SVC_DERP_SERVER_REGION_ID|abc|derp.server.region_id: must be a whole number (got \"abc\"); set by SVC_DERP_SERVER_REGION_ID",
            "SVC_CLI_INSECURE|maybe|cli.insecure: must be true or false (or 1/0, yes/no) (got \"maybe\"); set by SVC_CLI_INSECURE",
            "SVC_OIDC_EXTRA_PARAMS|domain_hint=x|oidc.extra_params: must be a JSON object in the environment (got \"domain_hint=x\"); set by SVC_OIDC_EXTRA_PARAMS",
            "SVC_OIDC_EXTRA_PARAMS|[\"a\"]|oidc.extra_params: must be a map of strings, not a list; set by SVC_OIDC_EXTRA_PARAMS",
            "SVC_NODE_EXPIRY|30|node.expiry: must be a duration such as 90s, 30m or 720h: missing unit in duration \"30\" (use e.g. 30s); set by SVC_NODE_EXPIRY",
            "SVC_LOG_LEVEL|''|log.level: must be one of panic, fatal, error, warn, info, debug, trace (got \"\"); set by SVC_LOG_LEVEL",
            "SVC_DATABASE_SQLITE_PATH|''|database.sqlite.path: must be a file path, not empty; set by SVC_DATABASE_SQLITE_PATH",
            "SVC_NOTIFICATIONS_SMTP_ENCRYPTION|ssl|notifications.smtp.encryption: must be one of starttls, tls, none (got \"ssl\"); set by SVC_NOTIFICATIONS_SMTP_ENCRYPTION",
    })
    void badVariableNamesTheKeyAndTheVariable(String variable, String value, String message) {
        LoadedConfig loaded = fixture.loadEnv(Map.of(variable, value));
        assertEquals(List.of(message), ConfigFixture.messages(loaded));
    }

    @Test
    void badVariableLeavesTheKeyAtItsDefault() {
        LoadedConfig loaded = fixture.load("log:\n  level: debug\n", Map.of("SVC_LOG_LEVEL", "loud"));
        assertEquals(LogLevel.INFO, loaded.config().log().level());
    }

    @Test
    void unknownSvcVariableIsAWarningWithASuggestion() {
        LoadedConfig loaded = fixture.loadEnv(Map.of("SVC_LOG_LEVLE", "debug", "SVC_CONFIG", "", "PATH", "/usr/bin"));
        assertTrue(loaded.valid());
        assertEquals(List.of("environment variable SVC_LOG_LEVLE matches no configuration key and is ignored"
                + " (did you mean SVC_LOG_LEVEL?)"), loaded.warnings());
    }

    @Test
    void launcherAndToolingVariablesAreNotTakenForConfiguration() {
        LoadedConfig loaded = fixture.loadEnv(Map.of("SVC_JAVA_OPTS", "-Xmx1g", "SVC_JDK_DIRS", "/opt/jdk",
                "SVC_CLIENTS_DIR", "/tmp/clients"));
        assertTrue(loaded.valid());
        assertEquals(List.of(), loaded.warnings());
    }

    @Test
    void keyNamesWithUnderscoresMapWithoutAmbiguity() {
        ConfigSchema schema = ConfigSchema.instance();
        assertEquals("database.sqlite.write_ahead_log",
                schema.keyForEnvName("SVC_DATABASE_SQLITE_WRITE_AHEAD_LOG").orElseThrow().path());
        assertEquals("derp.server.stun_listen_addr", schema.keyForEnvName("SVC_DERP_SERVER_STUN_LISTEN_ADDR").orElseThrow().path());
        assertEquals("SVC_NOTIFICATIONS_SMTP_HOST", schema.key("notifications.smtp.host").orElseThrow().envName());
    }

    private static Function<MeshConfig, Object> f(Function<MeshConfig, Object> read) {
        return read;
    }
}
