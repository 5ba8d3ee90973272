package io.meshcontrol.core.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The server's configuration: an immutable tree of records, one per section of {@code config.yaml}. Component names
 * are the YAML keys in camel case ({@code database.sqlite.write_ahead_log} is
 * {@code database().sqlite().writeAheadLog()}). {@code Optional} marks a setting that may be off or unset.
 *
 * <p>Paths produced by {@link ConfigLoader} are absolute (relative ones are resolved against the working directory);
 * {@link #defaults()} keeps them relative. Records holding secrets leave them out of {@code toString()}.
 */
public record MeshConfig(
        String serverUrl,
        String listenAddr,
        Optional<String> metricsListenAddr,
        Listener listener,
        Tls tls,
        Noise noise,
        Prefixes prefixes,
        Database database,
        Log log,
        Policy policy,
        Derp derp,
        Dns dns,
        Oidc oidc,
        Node node,
        ApiKeys apiKeys,
        PreauthKeys preauthKeys,
        Notifications notifications,
        ClientUpdates clientUpdates,
        List<String> controlDialPlan,
        Egress egress,
        SshRecording sshRecording,
        HttpsCertificates httpsCertificates,
        Funnel funnel,
        Branding branding,
        Debug debug,
        Cli cli) {

    private static final String REDACTED = "<redacted>";

    public MeshConfig {
        controlDialPlan = List.copyOf(controlDialPlan);
    }

    /** The built-in defaults, as if no file and no {@code SVC_} variable were present. Paths stay relative. */
    public static MeshConfig defaults() {
        return ConfigBinder.bind(ResolvedValues.defaults(ConfigSchema.instance()), null);
    }

    /** Serving HTTPS: a certificate from files, or one obtained from Let's Encrypt. */
    public record Tls(Optional<Path> certPath, Optional<Path> keyPath, LetsEncrypt letsEncrypt) {
        /** Whether the server terminates TLS itself (rather than plain HTTP behind a proxy). */
        public boolean enabled() {
            return certPath.isPresent() || letsEncrypt.hostname().isPresent();
        }
    }

    /** Automatic certificates over ACME ({@code tls_letsencrypt_*}, {@code acme_*}). */
    public record LetsEncrypt(Optional<String> hostname, Path cacheDir, Challenge challengeType, String listen,
                              String acmeUrl, String acmeEmail) {
        public enum Challenge implements ConfigChoice {
            HTTP_01("HTTP-01"), TLS_ALPN_01("TLS-ALPN-01");

            private final String configName;

            Challenge(String configName) {
                this.configName = configName;
            }

            @Override
            public String configName() {
                return configName;
            }
        }
    }

    /** Limits on connections to the listeners facing the network ({@code listener.*}); see docs/security.md. */
    public record Listener(Duration headerTimeout, Duration idleTimeout, int maxConnectionsPerAddress,
            int failedCredentialsPerAddress) {
    }

    public record Noise(Path privateKeyPath) {
    }

    /** Node address ranges; an empty CIDR means that address family is not used. */
    public record Prefixes(String v4, String v6, Allocation allocation) {
        public enum Allocation implements ConfigChoice {
            SEQUENTIAL, RANDOM;

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    public record Database(Type type, boolean debug, QueryLog queryLog, Sqlite sqlite, Postgres postgres) {
        public enum Type implements ConfigChoice {
            SQLITE, POSTGRES;

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /** What SQL logging shows; statements are logged only with {@code database.debug}, slow ones always. */
    public record QueryLog(boolean parameterized, boolean logNotFound, Duration slowThreshold) {
    }

    public record Sqlite(Path path, boolean writeAheadLog, int walAutocheckpoint) {
    }

    /** {@code database.postgres.*}: used when {@code database.type} is postgres. */
    public record Postgres(String host, int port, String name, String user, Optional<Path> passwordFile, Tls tls,
            int poolSize) {
        /** The driver's {@code sslmode}, of the three that make sense here. */
        public enum Tls implements ConfigChoice {
            DISABLE, REQUIRE, VERIFY_FULL;

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT).replace('_', '-');
            }
        }
    }

    public record Log(LogLevel level, Format format) {
        public enum Format implements ConfigChoice {
            TEXT, JSON;

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    public record Policy(Mode mode, Optional<Path> path, Optional<Path> geoipDatabase) {
        public enum Mode implements ConfigChoice {
            DATABASE, FILE;

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /** Relay settings. DERP settings changed at runtime are stored in the database; these are the file's values. */
    public record Derp(DerpServer server, boolean automaticallyAddEmbeddedDerpRegion, List<String> urls, List<Path> paths,
                       boolean autoUpdateEnabled, Duration updateFrequency) {
        public Derp {
            urls = List.copyOf(urls);
            paths = List.copyOf(paths);
        }
    }

    /**
     * The embedded relay. {@code privateKeyPath} is always set: when the file leaves it out it is
     * {@code derp_server_private.key} beside the Noise key.
     */
    public record DerpServer(boolean enabled, int regionId, String regionCode, String regionName, boolean verifyClients,
                             boolean stunEnabled, String stunListenAddr, Path privateKeyPath, Optional<String> ipv4,
                             Optional<String> ipv6, Optional<String> tlsListenAddr, Duration stunRetryInterval,
                             Optional<Path> meshKeyPath, List<String> meshWith) {
        public DerpServer {
            meshWith = List.copyOf(meshWith);
        }
    }

    public record Dns(boolean magicDns, String baseDomain, boolean overrideLocalDns, Nameservers nameservers,
                      List<String> searchDomains, List<ExtraRecord> extraRecords) {
        public Dns {
            searchDomains = List.copyOf(searchDomains);
            extraRecords = List.copyOf(extraRecords);
        }
    }

    /** Global resolvers, and split DNS: resolvers per domain, in the order the file lists the domains. */
    public record Nameservers(List<String> global, Map<String, List<String>> split) {
        public Nameservers {
            global = List.copyOf(global);
            Map<String, List<String>> copy = new LinkedHashMap<>();
            split.forEach((domain, resolvers) -> copy.put(domain, List.copyOf(resolvers)));
            split = Collections.unmodifiableMap(copy);
        }
    }

    /** An extra DNS record: {@code type} is A or AAAA. */
    public record ExtraRecord(String name, String type, String value) {
    }

    /** OpenID Connect login; on when {@code issuer} is set. */
    public record Oidc(Optional<String> issuer, String clientId, Optional<String> clientSecret,
                       Optional<Path> clientSecretPath, List<String> scope, Map<String, String> extraParams,
                       List<String> allowedDomains, List<String> allowedUsers, List<String> allowedGroups,
                       boolean emailVerifiedRequired, Duration expiry, boolean useExpiryFromToken, boolean onlyStartIfOidcIsAvailable, Pkce pkce) {
        public Oidc {
            scope = List.copyOf(scope);
            extraParams = Collections.unmodifiableMap(new LinkedHashMap<>(extraParams));
            allowedDomains = List.copyOf(allowedDomains);
            allowedUsers = List.copyOf(allowedUsers);
            allowedGroups = List.copyOf(allowedGroups);
        }

        public boolean enabled() {
            return issuer.isPresent();
        }

        @Override
        public String toString() {
            return "Oidc[issuer=" + issuer + ", clientId=" + clientId
                    + ", clientSecret=" + clientSecret.map(secret -> REDACTED) + ", clientSecretPath=" + clientSecretPath
                    + ", scope=" + scope + ", extraParams=" + extraParams + ", allowedDomains=" + allowedDomains
                    + ", allowedUsers=" + allowedUsers + ", allowedGroups=" + allowedGroups
                    + ", emailVerifiedRequired=" + emailVerifiedRequired + ", expiry=" + expiry
                    + ", useExpiryFromToken=" + useExpiryFromToken
                    + ", onlyStartIfOidcIsAvailable=" + onlyStartIfOidcIsAvailable + ", pkce=" + pkce + "]";
        }
    }

    public record Pkce(boolean enabled, Method method) {
        public enum Method implements ConfigChoice {
            PLAIN("plain"), S256("S256");

            private final String configName;

            Method(String configName) {
                this.configName = configName;
            }

            @Override
            public String configName() {
                return configName;
            }
        }
    }

    /** {@code expiry} zero means node keys do not expire by default. */
    public record Node(Duration expiry, Ephemeral ephemeral, Routes routes) {
    }

    /** @param maxExpiration the longest lifetime a key may be created or rotated with */
    public record ApiKeys(Duration maxExpiration) {
    }

    /** @param maxExpiration the longest lifetime a pre-auth key may be created with */
    public record PreauthKeys(Duration maxExpiration) {
    }

    public record Ephemeral(Duration inactivityTimeout) {
    }

    /** {@code ha}: fail over between routers advertising the same prefix. */
    /**
     * @param ha routers sharing a prefix fail over
     * @param haProbeInterval how often such routers are probed over their control connection; zero: not probed
     * @param haProbeTimeout how long a probed router has to answer
     */
    public record Routes(boolean ha, Duration haProbeInterval, Duration haProbeTimeout) {
    }

    public record Notifications(Smtp smtp) {
    }

    /** The mail server for e-mail notifications; e-mail is off while {@code host} is unset. */
    public record Smtp(Optional<String> host, int port, Optional<String> username, Optional<String> password,
                       String from, Encryption encryption) {
        public enum Encryption implements ConfigChoice {
            /** A plain connection upgraded with STARTTLS (submission, port 587). */
            STARTTLS(587),
            /** Implicit TLS from the first byte (port 465). */
            TLS(465),
            /** No encryption (port 25); for a relay on the same host or network only. */
            NONE(25);

            private final int defaultPort;

            Encryption(int defaultPort) {
                this.defaultPort = defaultPort;
            }

            public int defaultPort() {
                return defaultPort;
            }

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        public boolean enabled() {
            return host.isPresent();
        }

        /** {@code port}, or the standard port of {@code encryption} when the file leaves it at 0. */
        public int effectivePort() {
            return port != 0 ? port : encryption.defaultPort();
        }

        @Override
        public String toString() {
            return "Smtp[host=" + host + ", port=" + port + ", username=" + username
                    + ", password=" + password.map(secret -> REDACTED) + ", from=" + from
                    + ", encryption=" + encryption + "]";
        }
    }

    /**
     * The daily lookup of the latest stable client release.
     *
     * @param url where the release is looked up (the vendor's package index answers {@code ?mode=json})
     */
    public record ClientUpdates(boolean check, Duration interval, String url) {
    }

    /** The guard on outgoing requests (webhooks, DERP map URLs). Loopback and link-local are always refused. */
    public record Egress(boolean denyPrivateTargets, boolean allowLoopbackTargets) {
    }

    public record SshRecording(boolean notifyFailures) {
    }

    /**
     * TLS certificates for nodes' MagicDNS names ({@code tailscale cert}): the names go into each node's map as
     * {@code CertDomains}, and the ACME DNS-01 records nodes ask for at {@code /machine/set-dns} are published
     * through {@code dnsProvider}. See docs/certificates.md.
     *
     * @param recordLifetime how long a published record stays before it is removed
     */
    public record HttpsCertificates(boolean enabled, Provider dnsProvider, Duration recordLifetime, Rfc2136 rfc2136,
                                    DnsCommand command) {
        public enum Provider implements ConfigChoice {
            NONE, RFC2136, COMMAND;

            @Override
            public String configName() {
                return name().toLowerCase(Locale.ROOT);
            }
        }
    }

    /**
     * RFC 2136 dynamic updates, signed with TSIG.
     *
     * @param server host:port of the primary server
     * @param zone the zone updated; empty means {@code dns.base_domain}
     * @param tsigSecret base64
     */
    public record Rfc2136(Optional<String> server, String zone, String tsigKeyName, Algorithm tsigAlgorithm,
                          Optional<String> tsigSecret, Duration timeout) {
        public enum Algorithm implements ConfigChoice {
            HMAC_SHA256("hmac-sha256"), HMAC_SHA512("hmac-sha512");

            private final String configName;

            Algorithm(String configName) {
                this.configName = configName;
            }

            @Override
            public String configName() {
                return configName;
            }
        }

        @Override
        public String toString() {
            return "Rfc2136[server=" + server + ", zone=" + zone + ", tsigKeyName=" + tsigKeyName + ", tsigAlgorithm="
                    + tsigAlgorithm + ", tsigSecret=" + tsigSecret.map(s -> REDACTED) + ", timeout=" + timeout + "]";
        }
    }

    /** A program that publishes and removes records: {@code <path> present|cleanup <name> <value>}. */
    public record DnsCommand(Optional<Path> path, Duration timeout) {
    }

    public record Funnel(boolean enabled) {
    }

    public record Branding(String title, Optional<Path> logoPath) {
    }

    public record Debug(boolean nodeApiEnabled) {
    }

    /**
     * Where and how the {@code svc} CLI reaches a server. The CLI itself reads this section with
     * {@code io.meshcontrol.api.ClientSettings}, apart from the rest of the file; here it is checked (configtest) and
     * the server takes {@code localCredentialPath} from it (none: {@code LocalAccess.defaultLocation()}).
     */
    public record Cli(Optional<String> address, Optional<String> apiKey, boolean insecure,
            Optional<Path> localCredentialPath, Duration timeout) {

        /** {@code mesh.example.com} and {@code mesh.example.com:8443} mean HTTPS. */
        static String withScheme(String address) {
            return address.contains("://") ? address : "https://" + address;
        }

        @Override
        public String toString() {
            return "Cli[address=" + address + ", apiKey=" + apiKey.map(secret -> REDACTED)
                    + ", insecure=" + insecure + ", localCredentialPath=" + localCredentialPath + ", timeout=" + timeout + "]";
        }
    }
}
