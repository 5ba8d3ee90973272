package io.meshcontrol.core.config;

import io.meshcontrol.core.config.ConfigKey.Support;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every configuration key, declared once: path, type, default and a one-line description. The environment overlay,
 * unknown-key detection, type checks, the binder and {@code config.yaml.example} all follow this list.
 *
 * <p>Keys are grouped so that keys sharing a section are next to each other; the example renderer relies on it.
 * Names follow headscale where the spec names a setting but not its key, so a headscale file mostly carries over.
 */
public final class ConfigSchema {

    private static final ConfigSchema INSTANCE = new ConfigSchema(List.of(
            string("server_url", "http://127.0.0.1:8080",
                    "URL clients and the CLI reach this server at; a trailing slash is dropped.").withCheck(Checks.httpUrl()),
            string("listen_addr", "127.0.0.1:8080",
                    "Address the HTTP server (control protocol, APIs, console) listens on.").withCheck(Checks.hostPort()),
            optionalString("metrics_listen_addr", "127.0.0.1:9090",
                    "Address of /metrics and /debug; null (or empty in SVC_METRICS_LISTEN_ADDR) disables it.")
                    .withCheck(Checks.hostPort()),

            optionalPath("tls_cert_path", null,
                    "PEM certificate chain to serve HTTPS with; needs tls_key_path; reread when either file changes."),
            optionalPath("tls_key_path", null, "PEM private key (PKCS#8, RSA or EC) for tls_cert_path."),
            optionalString("tls_letsencrypt_hostname", null,
                    "Host name to obtain (and renew) a certificate for by ACME; excludes tls_cert_path."),
            path("tls_letsencrypt_cache_dir", "data/cache",
                    "Owner-only folder of the ACME account key and the obtained certificate and key."),
            choice("tls_letsencrypt_challenge_type", MeshConfig.LetsEncrypt.Challenge.class,
                    MeshConfig.LetsEncrypt.Challenge.HTTP_01,
                    "ACME challenge to answer: HTTP-01 on tls_letsencrypt_listen, TLS-ALPN-01 on listen_addr."),
            string("tls_letsencrypt_listen", ":http",
                    "Address the HTTP-01 challenge listener binds to (port 80 for a public CA).")
                    .withCheck(Checks.hostPort()),
            string("acme_url", "https://acme-v02.api.letsencrypt.org/directory",
                    "ACME directory URL, or an acme4j provider URI such as acme://letsencrypt.org/staging.")
                    .withCheck(Checks.acmeUrl()),
            string("acme_email", "", "Contact e-mail registered with the ACME provider.").withCheck(Checks.emailOrEmpty()),

            duration("listener.header_timeout", Duration.ofSeconds(30),
                    "A request's header must be complete this long after its first byte, or the connection is closed.")
                    .withCheck(Checks.atLeast(Duration.ofSeconds(1))),
            duration("listener.idle_timeout", Duration.ofSeconds(60),
                    "Connections that send no request, or move no byte mid-request, this long are closed (not ts2021 or DERP).")
                    .withCheck(Checks.atLeast(Duration.ofSeconds(1))),
            integer("listener.max_connections_per_address", 128,
                    "Connections one remote address may hold before ts2021 or DERP takes them over; loopback is exempt; 0: no cap.")
                    .withCheck(Checks.between(0, Integer.MAX_VALUE)),
            integer("listener.failed_credentials_per_address", 10,
                    "Failed credentials one address may present before each further one is answered 429; 0: no back-off.")
                    .withCheck(Checks.between(0, Integer.MAX_VALUE)),

            path("noise.private_key_path", "data/noise_private.key",
                    "Server's Noise (ts2021) private key; created when missing."),

            string("prefixes.v4", "100.64.0.0/10",
                    "IPv4 range node addresses come from, inside 100.64.0.0/10; empty disables IPv4.")
                    .withCheck(Checks.prefixWithin("100.64.0.0/10")),
            string("prefixes.v6", "fd7a:115c:a1e0::/48",
                    "IPv6 range node addresses come from, inside fd7a:115c:a1e0::/48; empty disables IPv6.")
                    .withCheck(Checks.prefixWithin("fd7a:115c:a1e0::/48")),
            choice("prefixes.allocation", MeshConfig.Prefixes.Allocation.class, MeshConfig.Prefixes.Allocation.SEQUENTIAL,
                    "How addresses are picked: the next free one after the last handed out, or a random free one."),

            choice("database.type", MeshConfig.Database.Type.class, MeshConfig.Database.Type.SQLITE,
                    "Database engine: sqlite (a file of this server's) or postgres (database.postgres.*)."),
            bool("database.debug", false, "Log every SQL statement (at debug level, so log.level: debug too)."),
            bool("database.query_log.parameterized", true,
                    "Log statements with placeholders instead of the bound values."),
            bool("database.query_log.log_not_found", false,
                    "Also log lookups that found no row (at info level, the statement as database.debug shows it)."),
            millis("database.query_log.slow_threshold", 1000,
                    "Warn of statements at least this many milliseconds slow; 0 turns the warning off."),
            path("database.sqlite.path", "data/db.sqlite", "SQLite database file."),
            bool("database.sqlite.write_ahead_log", true, "Use SQLite's write-ahead log (recommended)."),
            integer("database.sqlite.wal_autocheckpoint", 1000,
                    "WAL pages before a commit checkpoints the log; 0: the server checkpoints every 10 seconds instead.")
                    .withCheck(Checks.between(0, Integer.MAX_VALUE)),

            string("database.postgres.host", "localhost", "PostgreSQL server's host name or address.")
                    .withCheck(Checks.nonEmpty()),
            integer("database.postgres.port", 5432, "PostgreSQL server's port.").withCheck(Checks.between(1, 65535)),
            string("database.postgres.name", "svc", "Database to use; it must exist (the server makes the tables).")
                    .withCheck(Checks.nonEmpty()),
            string("database.postgres.user", "svc", "User to connect as; it must own the database or its schema.")
                    .withCheck(Checks.nonEmpty()),
            optionalPath("database.postgres.password_file", null,
                    "File holding the user's password (trailing newline ignored); null: none (trust or certificate)."),
            choice("database.postgres.tls", MeshConfig.Postgres.Tls.class, MeshConfig.Postgres.Tls.VERIFY_FULL,
                    "TLS to the server: verify-full checks its certificate and name; require does not; disable: none."),
            integer("database.postgres.pool_size", 10, "Connections to PostgreSQL kept open at most.")
                    .withCheck(Checks.between(1, 1000)),

            choice("log.level", LogLevel.class, LogLevel.INFO, "Least severe level that is logged."),
            choice("log.format", MeshConfig.Log.Format.class, MeshConfig.Log.Format.TEXT,
                    "Log line format; json writes one object a line, for log pipelines."),

            choice("policy.mode", MeshConfig.Policy.Mode.class, MeshConfig.Policy.Mode.DATABASE,
                    "Where the policy lives: in the database (edited through the API) or in policy.path."),
            optionalPath("policy.path", null,
                    "HuJSON policy file; required when policy.mode is file. Reloaded when it changes and on SIGHUP."),
            optionalPath("policy.geoip_database", null, "MaxMind-format GeoIP database (Country or City) placing"
                    + " machines by their public endpoints, for ip:country posture conditions. Reread on SIGHUP."),

            bool("derp.server.enabled", true, "Run the embedded DERP relay (with STUN) on server_url."),
            integer("derp.server.region_id", 999, "Region ID the embedded relay is published as.")
                    .withCheck(Checks.between(1, Integer.MAX_VALUE)),
            string("derp.server.region_code", "svc", "Short region code of the embedded relay."),
            string("derp.server.region_name", "Mesh Control embedded relay", "Region name clients display."),
            bool("derp.server.verify_clients", true, "Let only nodes this server knows use the embedded relay."),
            bool("derp.server.stun_enabled", true, "Answer STUN on derp.server.stun_listen_addr."),
            string("derp.server.stun_listen_addr", "0.0.0.0:3478",
                    "UDP address the STUN listener binds to.").withCheck(Checks.hostPort()),
            duration("derp.server.stun_retry_interval", Duration.ofSeconds(30),
                    "How often a STUN address that could not be bound (port busy) is tried again."),
            optionalPath("derp.server.private_key_path", null,
                    "Relay private key; by default derp_server_private.key beside noise.private_key_path."),
            optionalString("derp.server.ipv4", null,
                    "Public IPv4 address published for the embedded relay.").withCheck(Checks.ipv4()),
            optionalString("derp.server.ipv6", null,
                    "Public IPv6 address published for the embedded relay.").withCheck(Checks.ipv6()),
            optionalString("derp.server.tls_listen_addr", null,
                    "TCP address of the relay's own TLS port while server_url is http://; by default port 3340 on "
                            + "listen_addr's host.").withCheck(Checks.hostPort()),
            optionalPath("derp.server.mesh_key_path", null, "File holding the DERP mesh key (64 hex digits, as derper's"
                    + " --mesh-psk-file) that the relays of all instances share; required by derp.server.mesh_with."),
            stringList("derp.server.mesh_with", List.of(), "Base URLs of every instance's relay, this one's too, the"
                    + " same list on each: the relay meshes with the others, and the https ones are the embedded"
                    + " region's nodes (docs/high-availability.md).").withCheck(Checks.httpUrls()),
            bool("derp.automatically_add_embedded_derp_region", true,
                    "Add the embedded relay to the DERP map; false expects it in a derp.paths file."),
            stringList("derp.urls", List.of("https://controlplane.tailscale.com/derpmap/default"),
                    "DERP map URLs to fetch; an empty list means only this server's relays.").withCheck(Checks.httpUrls()),
            stringList("derp.paths", List.of(), "Local DERP map files (.yaml, .yml, .json or .hujson).")
                    .withCheck(Checks.filePaths()),
            bool("derp.auto_update_enabled", true, "Refetch derp.urls and reread derp.paths periodically."),
            duration("derp.update_frequency", Duration.ofHours(24), "How often DERP maps are refreshed."),

            bool("dns.magic_dns", true, "Give nodes names under dns.base_domain (MagicDNS)."),
            string("dns.base_domain", "mesh.internal",
                    "Domain node names live under; must not contain server_url's host.").withCheck(Checks.domainOrEmpty()),
            bool("dns.override_local_dns", false,
                    "Make nodes use dns.nameservers.global instead of their own resolvers (false: only as fallbacks)."),
            stringList("dns.nameservers.global", List.of(),
                    "Resolvers for all names: IP addresses or https:// DNS-over-HTTPS URLs.").withCheck(Checks.resolvers()),
            stringListMap("dns.nameservers.split", Map.of(),
                    "Resolvers per domain (split DNS), e.g. {\"corp.example.com\": [\"10.0.0.53\"]}.")
                    .withCheck(Checks.splitResolvers()),
            stringList("dns.search_domains", List.of(), "Extra search domains sent to nodes.").withCheck(Checks.domains()),
            recordList("dns.extra_records", "Extra DNS records MagicDNS answers: objects with name, type (A or AAAA) and value.")
                    .withCheck(Checks.dnsRecords()),

            optionalString("oidc.issuer", null, "OpenID Connect issuer URL; setting it turns on OIDC login.")
                    .withCheck(Checks.httpUrl()),
            string("oidc.client_id", "", "OIDC client ID."),
            optionalString("oidc.client_secret", null, "OIDC client secret; excludes oidc.client_secret_path."),
            optionalPath("oidc.client_secret_path", null, "File holding the OIDC client secret."),
            stringList("oidc.scope", List.of("openid", "profile", "email"), "Scopes requested at login."),
            stringMap("oidc.extra_params", Map.of(), "Extra query parameters for the authorization request."),
            stringList("oidc.allowed_domains", List.of(), "Only e-mail domains listed here may log in (empty: any)."),
            stringList("oidc.allowed_users", List.of(), "Only e-mail addresses listed here may log in (empty: any)."),
            stringList("oidc.allowed_groups", List.of(),
                    "Only members of a group listed here (the groups claim) may log in (empty: any)."),
            bool("oidc.email_verified_required", true,
                    "Trust the e-mail claim (allowed_domains, allowed_users, the profile) only when email_verified is true."),
            duration("oidc.expiry", Duration.ofDays(180),
                    "Key lifetime of a node registered through OIDC login; 0s: never expires."),
            bool("oidc.use_expiry_from_token", false,
                    "Expire such a node's key when the ID token expires, instead of after oidc.expiry."),
            bool("oidc.only_start_if_oidc_is_available", true, "Refuse to start while the issuer cannot be reached."),
            bool("oidc.pkce.enabled", true, "Send a PKCE challenge with the authorization request (RFC 7636)."),
            choice("oidc.pkce.method", MeshConfig.Pkce.Method.class, MeshConfig.Pkce.Method.S256, "PKCE challenge method."),

            duration("node.expiry", Duration.ZERO, "Default key expiry of newly registered nodes; 0s: no expiry."),
            duration("node.ephemeral.inactivity_timeout", Duration.ofMinutes(30),
                    "Offline time after which an ephemeral node is removed.").withCheck(Checks.atLeast(Duration.ofSeconds(65))),
            bool("node.routes.ha", true, "Fail over between subnet routers sharing a prefix; false: the lowest node id serves it."),
            duration("node.routes.ha_probe_interval", Duration.ofSeconds(10),
                    "How often each router sharing a prefix is asked over its control connection to answer; 0s: "
                            + "only the connection counts.").withCheck(Checks.zeroOrAtLeast(Duration.ofSeconds(2))),
            duration("node.routes.ha_probe_timeout", Duration.ofSeconds(5),
                    "How long a router has to answer the probe before its prefixes fail over.")
                    .withCheck(Checks.atLeast(Duration.ofSeconds(1))),

            duration("api_keys.max_expiration", Duration.ofDays(365),
                    "Longest lifetime an API key may be created or rotated with; longer requests are refused.")
                    .withCheck(Checks.atLeast(Duration.ofHours(1))),
            duration("preauth_keys.max_expiration", Duration.ofDays(365),
                    "Longest lifetime a pre-auth key may be created with; longer requests are refused.")
                    .withCheck(Checks.atLeast(Duration.ofHours(1))),

            optionalString("notifications.smtp.host", null, "Mail server for e-mail notifications; unset disables e-mail."),
            integer("notifications.smtp.port", 0, "Mail server port; 0 picks 587 (starttls), 465 (tls) or 25 (none).")
                    .withCheck(Checks.between(0, 65535)),
            optionalString("notifications.smtp.username", null, "Mail server login."),
            optionalString("notifications.smtp.password", null, "Mail server password."),
            string("notifications.smtp.from", "", "Sender address; required with a mail server.").withCheck(Checks.emailOrEmpty()),
            choice("notifications.smtp.encryption", MeshConfig.Smtp.Encryption.class, MeshConfig.Smtp.Encryption.STARTTLS,
                    "starttls upgrades a plain connection, tls is implicit TLS, none sends in clear."),

            bool("client_updates.check", true,
                    "Look up the latest stable client release every client_updates.interval and tell clients."),
            duration("client_updates.interval", Duration.ofHours(24), "How often the release lookup runs; at least 1h.")
                    .withCheck(Checks.atLeast(Duration.ofHours(1))),
            string("client_updates.url", "https://pkgs.tailscale.com/stable/?mode=json",
                    "Where the release is looked up: JSON with the version in TarballsVersion (or Version).")
                    .withCheck(Checks.httpUrl()),

            stringList("control_dial_plan", List.of(),
                    "IP addresses clients try for this server before resolving its name; empty: rely on DNS.")
                    .withCheck(Checks.ipAddresses()),

            bool("egress.deny_private_targets", false,
                    "Also refuse outgoing requests (webhooks, DERP maps, OIDC issuers) to private ranges."),
            bool("egress.allow_loopback_targets", false, "Allow outgoing requests to loopback addresses again."),

            bool("ssh_recording.notify_failures", true,
                    "Have nodes report failed SSH session recordings (sshRecordingFailed events)."),
            bool("https_certificates.enabled", false,
                    "Let nodes obtain TLS certificates for their MagicDNS names (tailscale cert); needs dns.magic_dns."),
            choice("https_certificates.dns_provider", MeshConfig.HttpsCertificates.Provider.class,
                    MeshConfig.HttpsCertificates.Provider.NONE,
                    "How nodes' ACME challenge TXT records are published (docs/certificates.md)."),
            duration("https_certificates.record_lifetime", Duration.ofMinutes(10),
                    "How long a challenge record stays published before it is removed.")
                    .withCheck(Checks.atLeast(Duration.ofSeconds(30))),
            optionalString("https_certificates.rfc2136.server", null,
                    "host:port of the primary DNS server that takes the dynamic updates (TCP).")
                    .withCheck(Checks.hostPort()),
            string("https_certificates.rfc2136.zone", "",
                    "Zone the records are updated in; empty: dns.base_domain.").withCheck(Checks.domainOrEmpty()),
            string("https_certificates.rfc2136.tsig_key_name", "", "Name of the TSIG key the updates are signed with.")
                    .withCheck(Checks.domainOrEmpty()),
            choice("https_certificates.rfc2136.tsig_algorithm", MeshConfig.Rfc2136.Algorithm.class,
                    MeshConfig.Rfc2136.Algorithm.HMAC_SHA256, "Algorithm of the TSIG key."),
            optionalString("https_certificates.rfc2136.tsig_secret", null, "The TSIG key's secret, base64.")
                    .withCheck(Checks.base64()),
            duration("https_certificates.rfc2136.timeout", Duration.ofSeconds(10),
                    "How long an update may take before the node is told it failed.")
                    .withCheck(Checks.atLeast(Duration.ofSeconds(1))),
            optionalPath("https_certificates.command.path", null,
                    "Program run as: <path> present|cleanup <record name> <value>; exit 0 once done."),
            duration("https_certificates.command.timeout", Duration.ofSeconds(60),
                    "How long the program may run before it is killed and the node told it failed.")
                    .withCheck(Checks.atLeast(Duration.ofSeconds(1))),
            bool("funnel.enabled", false,
                    "Give nodes the policy's funnel attribute (Funnel); false takes it out of every node's capabilities."),

            string("branding.title", "Mesh Control", "Product name shown on the registration and login pages."),
            optionalPath("branding.logo_path", null,
                    "Image (.png, .svg, .jpg, .gif or .webp, at most 256 KiB) shown beside it on those pages."),

            bool("debug.node_api_enabled", false,
                    "Serve POST /api/v1/debug/node and svc debug create-node (development only)."),

            optionalString("cli.address", null,
                    "Server the CLI talks to; a bare host (with optional port) means https.").withCheck(Checks.cliAddress()),
            optionalString("cli.api_key", null, "API key the CLI sends."),
            bool("cli.insecure", false, "Skip TLS certificate verification in the CLI."),
            optionalPath("cli.local_credential_path", null,
                    "Owner-only file where a running server leaves the local CLI's credential; none: a per-user folder (docs/cli.md)."),
            duration("cli.timeout", Duration.ofSeconds(10), "How long the CLI waits for each answer of the server.")
                    .withCheck(Checks.atLeast(Duration.ofMillis(1)))));

    private final List<ConfigKey> keys;
    private final Map<String, ConfigKey> byPath;
    private final Map<String, ConfigKey> byEnvName;

    private ConfigSchema(List<ConfigKey> keys) {
        this.keys = List.copyOf(keys);
        Map<String, ConfigKey> paths = new LinkedHashMap<>();
        Map<String, ConfigKey> envNames = new LinkedHashMap<>();
        for (ConfigKey key : keys) {
            if (paths.put(key.path(), key) != null) {
                throw new IllegalStateException("duplicate key " + key.path());
            }
            ConfigKey clash = envNames.put(key.envName(), key);
            if (clash != null) {
                throw new IllegalStateException(key.path() + " and " + clash.path() + " share " + key.envName());
            }
        }
        this.byPath = Map.copyOf(paths);
        this.byEnvName = Map.copyOf(envNames);
    }

    /** The schema of this version. */
    public static ConfigSchema instance() {
        return INSTANCE;
    }

    /** Every key, grouped by section, in the order the example file lists them. */
    public List<ConfigKey> keys() {
        return keys;
    }

    public Optional<ConfigKey> key(String path) {
        return Optional.ofNullable(byPath.get(path));
    }

    public Optional<ConfigKey> keyForEnvName(String envName) {
        return Optional.ofNullable(byEnvName.get(envName));
    }

    /** Whether {@code path} is a section holding keys, like {@code database} or {@code derp.server}. */
    public boolean isSection(String path) {
        String prefix = path + ".";
        return keys.stream().anyMatch(key -> key.path().startsWith(prefix));
    }

    private static ConfigKey key(String path, ValueType type, Object defaultValue, String description) {
        return new ConfigKey(path, type, defaultValue, List.of(), ConfigKey.Check.NONE, description,
                ConfigKey.Support.SUPPORTED);
    }

    private static ConfigKey string(String path, String defaultValue, String description) {
        return key(path, ValueType.STRING, defaultValue, description);
    }

    private static ConfigKey optionalString(String path, String defaultValue, String description) {
        return key(path, ValueType.OPTIONAL_STRING, Optional.ofNullable(defaultValue), description);
    }

    private static ConfigKey path(String path, String defaultValue, String description) {
        return key(path, ValueType.PATH, defaultValue, description);
    }

    private static ConfigKey optionalPath(String path, String defaultValue, String description) {
        return key(path, ValueType.OPTIONAL_PATH, Optional.ofNullable(defaultValue), description);
    }

    private static ConfigKey bool(String path, boolean defaultValue, String description) {
        return key(path, ValueType.BOOLEAN, defaultValue, description);
    }

    private static ConfigKey integer(String path, int defaultValue, String description) {
        return key(path, ValueType.INTEGER, defaultValue, description);
    }

    private static ConfigKey duration(String path, Duration defaultValue, String description) {
        return key(path, ValueType.DURATION, defaultValue, description);
    }

    private static ConfigKey millis(String path, long defaultMillis, String description) {
        return key(path, ValueType.MILLISECONDS, Duration.ofMillis(defaultMillis), description);
    }

    private static ConfigKey stringList(String path, List<String> defaultValue, String description) {
        return key(path, ValueType.STRING_LIST, defaultValue, description);
    }

    private static ConfigKey stringMap(String path, Map<String, String> defaultValue, String description) {
        return key(path, ValueType.STRING_MAP, defaultValue, description);
    }

    private static ConfigKey stringListMap(String path, Map<String, List<String>> defaultValue, String description) {
        return key(path, ValueType.STRING_LIST_MAP, defaultValue, description);
    }

    private static ConfigKey recordList(String path, String description) {
        return key(path, ValueType.RECORD_LIST, List.of(), description);
    }

    private static <E extends Enum<E> & ConfigChoice> ConfigKey choice(String path, Class<E> type, E defaultValue,
                                                                       String description) {
        return new ConfigKey(path, ValueType.CHOICE, defaultValue.configName(), ConfigChoice.names(type),
                ConfigKey.Check.NONE, description,
                ConfigKey.Support.SUPPORTED);
    }
}
