package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys the server does not act on yet are reported when set, and refuse the start where security depends on them. */
class UnsupportedKeysReportTest {

    @TempDir
    Path dir;

    private ConfigFixture fixture;

    @BeforeEach
    void fixture() {
        fixture = new ConfigFixture(dir);
    }

    @Test
    void aTlsCertificateThatWouldNotBeUsedIsAnError() {
        LoadedConfig loaded = fixture.load("tls_cert_path: cert.pem\ntls_key_path: key.pem\n");
        assertFalse(loaded.valid(), "a certificate the server would not serve must stop it");
        assertEquals(List.of("tls_cert_path", "tls_key_path"), loaded.errors().stream().map(ConfigProblem::key).toList());
        assertTrue(loaded.errors().getFirst().reason().startsWith("is not supported yet: the server serves plain HTTP"),
                loaded.errors().getFirst().reason());
    }

    @Test
    void anIgnoredSettingWithoutSecurityWeightIsAWarning() {
        LoadedConfig loaded = fixture.load("log:\n  format: json\ncli:\n  timeout: 5s\n");
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(List.of(
                "log.format is not supported yet and is ignored; remove it to silence this",
                "cli.timeout is not supported yet and is ignored; remove it to silence this"), loaded.warnings());
    }

    @Test
    void theReportNamesTheVariableThatSetTheKey() {
        LoadedConfig loaded = fixture.loadEnv(Map.of("SVC_TLS_LETSENCRYPT_HOSTNAME", "mesh.example.com"));
        assertEquals("tls_letsencrypt_hostname: is not supported yet (set by SVC_TLS_LETSENCRYPT_HOSTNAME): the server "
                + "serves plain HTTP only; remove it and terminate TLS in a reverse proxy in front of listen_addr, with "
                + "server_url set to the proxy's https:// address", loaded.errors().getFirst().toString());
    }

    @Test
    void unsupportedKeysLeftAtTheirDefaultsPassQuietly() {
        // What a copy of config.yaml.example does: every key written out with its default.
        LoadedConfig loaded = fixture.load("""
                tls_letsencrypt_listen: ":http"
                oidc:
                  scope: [openid, profile, email]
                  only_start_if_oidc_is_available: true
                funnel:
                  enabled: false
                """);
        assertEquals(List.of(), loaded.errors());
        assertEquals(List.of(), loaded.warnings());
    }
}
