package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigSchemaTest {

    private final ConfigSchema schema = ConfigSchema.instance();

    /** Every key the interface spec names, plus the headscale names this project adopted. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "server_url", "listen_addr", "metrics_listen_addr", "tls_cert_path", "tls_key_path", "tls_letsencrypt_hostname",
            "noise.private_key_path", "prefixes.v4", "prefixes.v6", "prefixes.allocation",
            "database.type", "database.debug", "database.query_log.parameterized", "database.query_log.log_not_found",
            "database.query_log.slow_threshold", "database.sqlite.path", "database.sqlite.write_ahead_log",
            "oidc.issuer", "oidc.client_id", "oidc.client_secret", "oidc.client_secret_path", "oidc.scope",
            "oidc.extra_params", "oidc.allowed_domains", "oidc.allowed_users", "oidc.allowed_groups", "oidc.expiry",
            "oidc.email_verified_required", "oidc.only_start_if_oidc_is_available",
            "oidc.use_expiry_from_token", "oidc.pkce.enabled", "oidc.pkce.method",
            "policy.mode", "policy.path", "policy.geoip_database",
            "derp.server.enabled", "derp.server.region_id", "derp.server.region_code", "derp.server.region_name",
            "derp.server.verify_clients", "derp.server.stun_listen_addr", "derp.server.private_key_path",
            "derp.server.ipv4", "derp.server.ipv6", "derp.automatically_add_embedded_derp_region",
            "derp.urls", "derp.paths", "derp.auto_update_enabled", "derp.update_frequency",
            "notifications.smtp.host", "notifications.smtp.port", "notifications.smtp.username",
            "notifications.smtp.password", "notifications.smtp.from", "notifications.smtp.encryption",
            "client_updates.check", "client_updates.interval", "control_dial_plan",
            "egress.deny_private_targets", "egress.allow_loopback_targets", "debug.node_api_enabled",
            "log.level", "log.format", "node.ephemeral.inactivity_timeout", "node.expiry", "node.routes.ha",
            "dns.base_domain", "dns.magic_dns", "dns.nameservers.global", "dns.nameservers.split", "dns.search_domains",
            "dns.extra_records", "dns.override_local_dns", "cli.address", "cli.api_key", "cli.insecure",
    })
    void declaresKey(String path) {
        assertTrue(schema.key(path).isPresent(), path + " is not declared");
    }

    @ParameterizedTest(name = "section {0}")
    @ValueSource(strings = {"ssh_recording", "https_certificates", "funnel", "branding"})
    void declaresSectionsTheSpecNames(String section) {
        assertTrue(schema.isSection(section), section + " has no keys");
    }

    @Test
    void defaultsPassEveryRule(@TempDir Path dir) {
        for (ConfigKey key : schema.keys()) {
            assertEquals(Optional.empty(), key.check().problem(key.defaultValue()), key.path());
        }
        LoadedConfig loaded = new ConfigFixture(dir).loadEnv(Map.of());
        assertEquals(List.of(), loaded.errors());
        assertEquals(List.of(), loaded.warnings());
    }

    @Test
    void binderReadsEveryDeclaredKey() {
        ResolvedValues values = ResolvedValues.defaults(schema);
        ConfigBinder.bind(values, null);
        Set<String> declared = schema.keys().stream().map(ConfigKey::path).collect(Collectors.toSet());
        assertEquals(declared, values.keysRead(), "a declared key the binder never reads would be silently ignored");
    }

    @Test
    void environmentNamesAreUniqueAndFollowTheRule() {
        Set<String> names = schema.keys().stream().map(ConfigKey::envName).collect(Collectors.toSet());
        assertEquals(schema.keys().size(), names.size());
        assertEquals("SVC_DATABASE_SQLITE_PATH", schema.key("database.sqlite.path").orElseThrow().envName());
    }

    @Test
    void sectionsAreKeptTogetherSoTheExampleHasNoDuplicateSections() {
        ExampleConfig.render(schema); // throws when a section's keys are split
    }

    @Test
    void choiceKeysListTheirEnumsWords() {
        assertEquals(List.of("panic", "fatal", "error", "warn", "info", "debug", "trace"),
                schema.key("log.level").orElseThrow().choices());
        assertEquals(List.of("starttls", "tls", "none"), schema.key("notifications.smtp.encryption").orElseThrow().choices());
        assertEquals("starttls", schema.key("notifications.smtp.encryption").orElseThrow().defaultValue());
    }
}
