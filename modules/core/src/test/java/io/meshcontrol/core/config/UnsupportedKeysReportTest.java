package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void anIgnoredSettingWithoutSecurityWeightIsAWarning() {
        LoadedConfig loaded = fixture.load("policy:\n  geoip_database: /var/lib/svc/GeoLite2-City.mmdb\n");
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(List.of(
                "policy.geoip_database is not supported yet and is ignored; remove it to silence this"), loaded.warnings());
    }

    @Test
    void theReportNamesTheVariableThatSetTheKey() {
        LoadedConfig loaded = fixture.loadEnv(Map.of("SVC_POLICY_GEOIP_DATABASE", "/var/lib/svc/GeoLite2-City.mmdb"));
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(List.of("policy.geoip_database is not supported yet and is ignored (set by "
                + "SVC_POLICY_GEOIP_DATABASE); remove it to silence this"), loaded.warnings());
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
