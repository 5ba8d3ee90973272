package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LegacyKeysTest {

    @TempDir
    Path dir;

    private ConfigFixture fixture;

    @BeforeEach
    void fixture() {
        fixture = new ConfigFixture(dir);
    }

    @Test
    void gormBlockIsMappedOntoQueryLogWithDeprecationWarnings() {
        LoadedConfig loaded = fixture.load("""
                database:
                  type: sqlite
                  gorm:
                    prepare_stmt: true
                    parameterized_queries: false
                    skip_err_record_not_found: false
                    slow_threshold: 250
                """);
        assertEquals(List.of(), loaded.errors());
        MeshConfig.QueryLog queryLog = loaded.config().database().queryLog();
        assertFalse(queryLog.parameterized());
        assertTrue(queryLog.logNotFound(), "not skipping not-found errors means logging them");
        assertEquals(Duration.ofMillis(250), queryLog.slowThreshold());
        assertEquals(List.of(
                "database.gorm.prepare_stmt is deprecated and ignored: statements are always prepared, so it has no effect",
                "database.gorm.parameterized_queries is deprecated: use database.query_log.parameterized instead",
                "database.gorm.skip_err_record_not_found is deprecated: use database.query_log.log_not_found"
                        + " (with the opposite value) instead",
                "database.gorm.slow_threshold is deprecated: use database.query_log.slow_threshold instead"),
                ConfigFixture.warnings(loaded));
    }

    @Test
    void explicitQueryLogKeysBeatTheGormBlock() {
        LoadedConfig loaded = fixture.load("""
                database:
                  gorm:
                    slow_threshold: 250
                    parameterized_queries: false
                  query_log:
                    slow_threshold: 2000
                """);
        assertEquals(List.of(), loaded.errors());
        assertEquals(Duration.ofMillis(2000), loaded.config().database().queryLog().slowThreshold());
        assertFalse(loaded.config().database().queryLog().parameterized(), "keys not set explicitly are still taken");
        assertTrue(loaded.warnings().contains(
                "database.gorm.slow_threshold is deprecated and ignored because database.query_log.slow_threshold is set"),
                loaded.warnings().toString());
    }

    @Test
    void environmentBeatsTheGormBlock() {
        LoadedConfig loaded = fixture.load("database:\n  gorm:\n    slow_threshold: 250\n",
                Map.of("SVC_DATABASE_QUERY_LOG_SLOW_THRESHOLD", "5000"));
        assertEquals(Duration.ofMillis(5000), loaded.config().database().queryLog().slowThreshold());
    }

    @Test
    void badGormValueNamesTheOldKey() {
        LoadedConfig loaded = fixture.load("database:\n  gorm:\n    skip_err_record_not_found: perhaps\n");
        assertEquals(List.of("database.gorm.skip_err_record_not_found: must be true or false (or 1/0, yes/no) (got \"perhaps\")"),
                ConfigFixture.messages(loaded));
    }

    @Test
    void unknownGormKeysAreIgnoredWithAWarning() {
        LoadedConfig loaded = fixture.load("database:\n  gorm:\n    debug_sql: true\n");
        assertTrue(loaded.valid());
        assertEquals(List.of("database.gorm.debug_sql is deprecated and ignored: it has no counterpart in database.query_log"),
                loaded.warnings());
    }

    @Test
    void headscaleKeysThatMovedAreStillRead() {
        LoadedConfig loaded = fixture.load("""
                ephemeral_node_inactivity_timeout: 2h
                derp:
                  server:
                    automatically_add_embedded_derp_region: false
                  paths: [derp.yaml]
                """);
        assertEquals(List.of(), loaded.errors());
        assertEquals(Duration.ofHours(2), loaded.config().node().ephemeral().inactivityTimeout());
        assertFalse(loaded.config().derp().automaticallyAddEmbeddedDerpRegion());
        assertEquals(List.of(
                "derp.server.automatically_add_embedded_derp_region is deprecated: use derp.automatically_add_embedded_derp_region instead",
                "ephemeral_node_inactivity_timeout is deprecated: use node.ephemeral.inactivity_timeout instead"),
                loaded.warnings());
    }
}
