package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MeshConfigTest {

    @Test
    void defaultsAreTheDocumentedValues() {
        MeshConfig config = MeshConfig.defaults();
        assertEquals("http://127.0.0.1:8080", config.serverUrl());
        assertEquals("127.0.0.1:8080", config.listenAddr());
        assertEquals(Optional.of("127.0.0.1:9090"), config.metricsListenAddr());
        assertEquals(Path.of("data/noise_private.key"), config.noise().privateKeyPath());
        assertEquals(Path.of("data/derp_server_private.key"), config.derp().server().privateKeyPath());
        assertEquals(Path.of("data/db.sqlite"), config.database().sqlite().path());
        assertTrue(config.database().sqlite().writeAheadLog());
        assertEquals(LogLevel.INFO, config.log().level());
        assertEquals("100.64.0.0/10", config.prefixes().v4());
        assertEquals("fd7a:115c:a1e0::/48", config.prefixes().v6());
        assertEquals(Duration.ZERO, config.node().expiry());
        assertEquals(Duration.ofMinutes(30), config.node().ephemeral().inactivityTimeout());
        assertTrue(config.node().routes().ha());
        assertTrue(config.derp().server().enabled());
        assertTrue(config.derp().server().verifyClients());
        assertEquals(999, config.derp().server().regionId());
        assertEquals("0.0.0.0:3478", config.derp().server().stunListenAddr());
        assertEquals(MeshConfig.Policy.Mode.DATABASE, config.policy().mode());
        assertEquals(MeshConfig.Smtp.Encryption.STARTTLS, config.notifications().smtp().encryption());
        assertFalse(config.notifications().smtp().enabled());
        assertEquals(Duration.ofHours(24), config.clientUpdates().interval());
        assertEquals(List.of(), config.controlDialPlan());
        assertFalse(config.egress().denyPrivateTargets());
        assertFalse(config.debug().nodeApiEnabled());
        assertEquals(Optional.empty(), config.cli().address());
        assertFalse(config.cli().insecure());
        assertFalse(config.oidc().enabled());
        assertFalse(config.tls().enabled());
    }

    @Test
    void loaderResolvesTheSameDefaultsAgainstTheWorkingDirectory(@TempDir Path dir) {
        MeshConfig loaded = new ConfigFixture(dir).loadEnv(Map.of()).config();
        assertEquals(dir.resolve("data/db.sqlite"), loaded.database().sqlite().path());
        assertEquals(MeshConfig.defaults().derp().urls(), loaded.derp().urls());
        assertEquals(MeshConfig.defaults().log(), loaded.log());
    }

    @ParameterizedTest(name = "port {0} with {1} is {2}")
    @CsvSource({"0, STARTTLS, 587", "0, TLS, 465", "0, NONE, 25", "2525, STARTTLS, 2525", "1465, TLS, 1465"})
    void smtpPortDefaultsByEncryption(int port, MeshConfig.Smtp.Encryption encryption, int expected) {
        MeshConfig.Smtp smtp = new MeshConfig.Smtp(Optional.of("smtp.example.com"), port, Optional.empty(), Optional.empty(),
                "mesh@example.com", encryption);
        assertEquals(expected, smtp.effectivePort());
    }

    @ParameterizedTest(name = "{0} logs at {1}")
    @CsvSource({"PANIC, SEVERE", "FATAL, SEVERE", "ERROR, SEVERE", "WARN, WARNING", "INFO, INFO", "DEBUG, FINE",
            "TRACE, FINEST"})
    void logLevelsMapToJavaUtilLogging(LogLevel level, String julName) {
        assertEquals(Level.parse(julName), level.julLevel());
    }

    @Test
    void secretsStayOutOfToString(@TempDir Path dir) {
        LoadedConfig loaded = new ConfigFixture(dir).load("""
                oidc:
                  issuer: https://login.example.com
                  client_id: svc
                  client_secret: oidc-s3cret
                notifications:
                  smtp:
                    host: smtp.example.com
                    from: mesh@example.com
                    username: mesh
                    password: smtp-s3cret
                cli:
                  api_key: cli-s3cret
                """);
        assertEquals(List.of(), ConfigFixture.errors(loaded));
        String text = loaded.config().toString();
        for (String secret : List.of("oidc-s3cret", "smtp-s3cret", "cli-s3cret")) {
            assertFalse(text.contains(secret), secret + " leaked into toString()");
        }
        assertTrue(text.contains("apiKey=Optional[<redacted>]"), text);
        assertEquals(Optional.of("cli-s3cret"), loaded.config().cli().apiKey(), "the accessor still gives the secret");
    }

    @Test
    void recordsAreImmutable() {
        List<String> urls = new java.util.ArrayList<>(List.of("https://a.example.com/map.json"));
        MeshConfig.Derp derp = new MeshConfig.Derp(MeshConfig.defaults().derp().server(), true, urls, List.of(), true,
                Duration.ofHours(1));
        urls.add("https://b.example.com/map.json");
        assertEquals(List.of("https://a.example.com/map.json"), derp.urls());
    }
}
