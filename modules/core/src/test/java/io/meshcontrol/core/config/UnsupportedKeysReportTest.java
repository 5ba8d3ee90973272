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
    void everyKeyIsActedOnNow() {
        assertEquals(List.of(), ConfigSchema.instance().keys().stream()
                .filter(key -> key.support() != ConfigKey.Support.SUPPORTED).map(ConfigKey::path).toList());
    }

    @Test
    void theLocationDatabaseIsASettingLikeAnyOtherWithoutAWarning() {
        LoadedConfig loaded = fixture.load("policy:\n  geoip_database: /var/lib/svc/GeoLite2-City.mmdb\n");
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(List.of(), loaded.warnings());
        assertEquals(Path.of("/var/lib/svc/GeoLite2-City.mmdb"), loaded.config().policy().geoipDatabase().orElseThrow());
        LoadedConfig fromEnv = fixture.loadEnv(Map.of("SVC_POLICY_GEOIP_DATABASE", "/var/lib/svc/GeoLite2-City.mmdb"));
        assertEquals(List.of(), fromEnv.warnings());
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
