package io.meshcontrol.core.config;

import java.nio.file.Path;
import java.util.Optional;

/** Builds the {@link MeshConfig} record tree from resolved values. Values are already valid; this only shapes them. */
final class ConfigBinder {

    private final ResolvedValues v;
    private final Path workingDir;

    private ConfigBinder(ResolvedValues values, Path workingDir) {
        this.v = values;
        this.workingDir = workingDir;
    }

    /**
     * @param workingDir relative paths are resolved against it; null keeps them relative
     */
    static MeshConfig bind(ResolvedValues values, Path workingDir) {
        return new ConfigBinder(values, workingDir).bind();
    }

    private MeshConfig bind() {
        Path noiseKey = path("noise.private_key_path");
        return new MeshConfig(
                stripTrailingSlash(v.string("server_url")),
                v.string("listen_addr"),
                v.optional("metrics_listen_addr"),
                new MeshConfig.Listener(
                        v.duration("listener.header_timeout"),
                        v.duration("listener.idle_timeout"),
                        v.integer("listener.max_connections_per_address"),
                        v.integer("listener.failed_credentials_per_address")),
                new MeshConfig.Tls(
                        optionalPath("tls_cert_path"),
                        optionalPath("tls_key_path"),
                        new MeshConfig.LetsEncrypt(
                                v.optional("tls_letsencrypt_hostname"),
                                path("tls_letsencrypt_cache_dir"),
                                v.choice("tls_letsencrypt_challenge_type", MeshConfig.LetsEncrypt.Challenge.class),
                                v.string("tls_letsencrypt_listen"),
                                v.string("acme_url"),
                                v.string("acme_email"))),
                new MeshConfig.Noise(noiseKey),
                new MeshConfig.Prefixes(
                        v.string("prefixes.v4"),
                        v.string("prefixes.v6"),
                        v.choice("prefixes.allocation", MeshConfig.Prefixes.Allocation.class)),
                new MeshConfig.Database(
                        v.choice("database.type", MeshConfig.Database.Type.class),
                        v.bool("database.debug"),
                        new MeshConfig.QueryLog(
                                v.bool("database.query_log.parameterized"),
                                v.bool("database.query_log.log_not_found"),
                                v.duration("database.query_log.slow_threshold")),
                        new MeshConfig.Sqlite(
                                path("database.sqlite.path"),
                                v.bool("database.sqlite.write_ahead_log"),
                                v.integer("database.sqlite.wal_autocheckpoint")),
                        new MeshConfig.Postgres(
                                v.string("database.postgres.host"),
                                v.integer("database.postgres.port"),
                                v.string("database.postgres.name"),
                                v.string("database.postgres.user"),
                                optionalPath("database.postgres.password_file"),
                                v.choice("database.postgres.tls", MeshConfig.Postgres.Tls.class),
                                v.integer("database.postgres.pool_size"))),
                new MeshConfig.Log(
                        v.choice("log.level", LogLevel.class),
                        v.choice("log.format", MeshConfig.Log.Format.class)),
                new MeshConfig.Policy(
                        v.choice("policy.mode", MeshConfig.Policy.Mode.class),
                        optionalPath("policy.path"),
                        optionalPath("policy.geoip_database")),
                new MeshConfig.Derp(
                        new MeshConfig.DerpServer(
                                v.bool("derp.server.enabled"),
                                v.integer("derp.server.region_id"),
                                v.string("derp.server.region_code"),
                                v.string("derp.server.region_name"),
                                v.bool("derp.server.verify_clients"),
                                v.bool("derp.server.stun_enabled"),
                                v.string("derp.server.stun_listen_addr"),
                                // The spec: the relay key lives beside the Noise key unless a path is given.
                                optionalPath("derp.server.private_key_path")
                                        .orElse(noiseKey.resolveSibling("derp_server_private.key")),
                                v.optional("derp.server.ipv4"),
                                v.optional("derp.server.ipv6"),
                                v.optional("derp.server.tls_listen_addr"),
                                v.duration("derp.server.stun_retry_interval"),
                                optionalPath("derp.server.mesh_key_path"),
                                v.stringList("derp.server.mesh_with")),
                        v.bool("derp.automatically_add_embedded_derp_region"),
                        v.stringList("derp.urls"),
                        v.stringList("derp.paths").stream().map(this::resolve).toList(),
                        v.bool("derp.auto_update_enabled"),
                        v.duration("derp.update_frequency")),
                new MeshConfig.Dns(
                        v.bool("dns.magic_dns"),
                        v.string("dns.base_domain"),
                        v.bool("dns.override_local_dns"),
                        new MeshConfig.Nameservers(
                                v.stringList("dns.nameservers.global"),
                                v.stringListMap("dns.nameservers.split")),
                        v.stringList("dns.search_domains"),
                        v.recordList("dns.extra_records").stream()
                                .map(r -> new MeshConfig.ExtraRecord(r.get("name"), r.get("type"), r.get("value")))
                                .toList()),
                new MeshConfig.Oidc(
                        v.optional("oidc.issuer"),
                        v.string("oidc.client_id"),
                        v.optional("oidc.client_secret"),
                        optionalPath("oidc.client_secret_path"),
                        v.stringList("oidc.scope"),
                        v.stringMap("oidc.extra_params"),
                        v.stringList("oidc.allowed_domains"),
                        v.stringList("oidc.allowed_users"),
                        v.stringList("oidc.allowed_groups"),
                        v.bool("oidc.email_verified_required"),
                        v.duration("oidc.expiry"),
                        v.bool("oidc.use_expiry_from_token"),
                        v.bool("oidc.only_start_if_oidc_is_available"),
                        new MeshConfig.Pkce(
                                v.bool("oidc.pkce.enabled"),
                                v.choice("oidc.pkce.method", MeshConfig.Pkce.Method.class))),
                new MeshConfig.Node(
                        v.duration("node.expiry"),
                        new MeshConfig.Ephemeral(v.duration("node.ephemeral.inactivity_timeout")),
                        new MeshConfig.Routes(v.bool("node.routes.ha"), v.duration("node.routes.ha_probe_interval"),
                                v.duration("node.routes.ha_probe_timeout"))),
                new MeshConfig.ApiKeys(v.duration("api_keys.max_expiration")),
                new MeshConfig.PreauthKeys(v.duration("preauth_keys.max_expiration")),
                new MeshConfig.Notifications(new MeshConfig.Smtp(
                        v.optional("notifications.smtp.host"),
                        v.integer("notifications.smtp.port"),
                        v.optional("notifications.smtp.username"),
                        v.optional("notifications.smtp.password"),
                        v.string("notifications.smtp.from"),
                        v.choice("notifications.smtp.encryption", MeshConfig.Smtp.Encryption.class))),
                new MeshConfig.ClientUpdates(
                        v.bool("client_updates.check"),
                        v.duration("client_updates.interval"),
                        v.string("client_updates.url")),
                v.stringList("control_dial_plan"),
                new MeshConfig.Egress(
                        v.bool("egress.deny_private_targets"),
                        v.bool("egress.allow_loopback_targets")),
                new MeshConfig.SshRecording(v.bool("ssh_recording.notify_failures")),
                new MeshConfig.HttpsCertificates(
                        v.bool("https_certificates.enabled"),
                        v.choice("https_certificates.dns_provider", MeshConfig.HttpsCertificates.Provider.class),
                        v.duration("https_certificates.record_lifetime"),
                        new MeshConfig.Rfc2136(
                                v.optional("https_certificates.rfc2136.server"),
                                v.string("https_certificates.rfc2136.zone"),
                                v.string("https_certificates.rfc2136.tsig_key_name"),
                                v.choice("https_certificates.rfc2136.tsig_algorithm", MeshConfig.Rfc2136.Algorithm.class),
                                v.optional("https_certificates.rfc2136.tsig_secret"),
                                v.duration("https_certificates.rfc2136.timeout")),
                        new MeshConfig.DnsCommand(
                                optionalPath("https_certificates.command.path"),
                                v.duration("https_certificates.command.timeout"))),
                new MeshConfig.Funnel(v.bool("funnel.enabled")),
                new MeshConfig.Branding(
                        v.string("branding.title"),
                        optionalPath("branding.logo_path")),
                new MeshConfig.Debug(v.bool("debug.node_api_enabled")),
                new MeshConfig.Cli(
                        v.optional("cli.address"),
                        v.optional("cli.api_key"),
                        v.bool("cli.insecure"),
                        optionalPath("cli.local_credential_path"),
                        v.duration("cli.timeout")));
    }

    private Path path(String key) {
        return resolve(v.string(key));
    }

    private Optional<Path> optionalPath(String key) {
        return v.optional(key).map(this::resolve);
    }

    private Path resolve(String text) {
        Path path = Path.of(text);
        return workingDir == null ? path : workingDir.resolve(path).normalize();
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
