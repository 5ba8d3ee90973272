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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ValidationTest {

    @TempDir
    Path dir;

    private ConfigFixture fixture;

    @BeforeEach
    void fixture() {
        fixture = new ConfigFixture(dir);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "log: {level: loud}|log.level: must be one of panic, fatal, error, warn, info, debug, trace (got \"loud\")",
            "log: {format: xml}|log.format: must be one of text, json (got \"xml\")",
            "client_updates: {interval: 30m}|client_updates.interval: must be at least 1h (got \"30m\")",
            "notifications: {smtp: {encryption: ssl}}|notifications.smtp.encryption: must be one of starttls, tls, none (got \"ssl\")",
            "notifications: {smtp: {port: 70000}}|notifications.smtp.port: must be from 0 to 65535 (got 70000)",
            "notifications: {smtp: {from: nobody}}|notifications.smtp.from: must be an e-mail address (got \"nobody\")",
            "listen_addr: 8080|listen_addr: must be host:port, e.g. 127.0.0.1:8080 (got \"8080\")",
            "metrics_listen_addr: localhost|metrics_listen_addr: must be host:port, e.g. 127.0.0.1:8080 (got \"localhost\")",
            "derp: {server: {stun_listen_addr: \"::3478\"}}|derp.server.stun_listen_addr: must put an IPv6 host in brackets, e.g. [::1]:8080 (got \"::3478\")",
            "server_url: mesh.example.com|server_url: must be an absolute http:// or https:// URL (got \"mesh.example.com\")",
            "server_url: ftp://mesh.example.com|server_url: must be an absolute http:// or https:// URL (got \"ftp://mesh.example.com\")",
            "server_url: https://|server_url: must be an absolute http:// or https:// URL (got \"https://\")",
            "prefixes: {v4: 10.0.0.0/8}|prefixes.v4: must be inside 100.64.0.0/10, the range clients accept (got \"10.0.0.0/8\")",
            "prefixes: {v4: 100.64.0.1/10}|prefixes.v4: must not have address bits set after the prefix length (got \"100.64.0.1/10\")",
            "prefixes: {v4: 100.64.0.0}|prefixes.v4: must be a CIDR prefix such as 100.64.0.0/10 (got \"100.64.0.0\")",
            "prefixes: {v4: 100.64.0.0/33}|prefixes.v4: has an invalid prefix length: \"100.64.0.0/33\"",
            "prefixes: {v4: \"fd7a:115c:a1e0::/48\"}|prefixes.v4: must be inside 100.64.0.0/10, the range clients accept (got \"fd7a:115c:a1e0::/48\")",
            "prefixes: {v6: \"2001:db8::/32\"}|prefixes.v6: must be inside fd7a:115c:a1e0::/48, the range clients accept (got \"2001:db8::/32\")",
            "prefixes: {allocation: clever}|prefixes.allocation: must be one of sequential, random (got \"clever\")",
            "database: {type: mysql}|database.type: must be one of sqlite, postgres (got \"mysql\")",
            "database: {postgres: {tls: prefer}}|database.postgres.tls: must be one of disable, require, verify-full (got \"prefer\")",
            "database: {postgres: {port: 70000}}|database.postgres.port: must be from 1 to 65535 (got 70000)",
            "policy: {mode: git}|policy.mode: must be one of database, file (got \"git\")",
            "cli: {address: \"ftp://mesh.example.com\"}|cli.address: must be an absolute http:// or https:// URL (got \"ftp://mesh.example.com\")",
            "cli: {timeout: 0s}|cli.timeout: must be at least 1ms (got \"0s\")",
            "node: {ephemeral: {inactivity_timeout: 30s}}|node.ephemeral.inactivity_timeout: must be at least 1m5s (got \"30s\")",
            "node: {routes: {ha_probe_interval: 1s}}|node.routes.ha_probe_interval: must be at least 2s (got \"1s\")",
            "node: {routes: {ha_probe_timeout: 500ms}}|node.routes.ha_probe_timeout: must be at least 1s (got \"500ms\")",
            "derp: {server: {ipv4: \"2001:db8::1\"}}|derp.server.ipv4: must be an IPv4 address (got \"2001:db8::1\")",
            "derp: {server: {ipv6: 192.0.2.1}}|derp.server.ipv6: must be an IPv6 address (got \"192.0.2.1\")",
            "derp: {server: {ipv6: \"fe80::1%eth0\"}}|derp.server.ipv6: must be an IPv6 address (got \"fe80::1%eth0\")",
            "derp: {server: {region_id: 0}}|derp.server.region_id: must be from 1 to 2147483647 (got 0)",
            "derp: {urls: [\"https:///derp.json\"]}|derp.urls: must name a host (got \"https:///derp.json\")",
            "derp: {urls: [\"derp.example.com/map.json\"]}|derp.urls: must be an absolute http:// or https:// URL (got \"derp.example.com/map.json\")",
            "control_dial_plan: [mesh.example.com]|control_dial_plan: must be IP addresses; \"mesh.example.com\" is not one",
            "dns: {nameservers: {global: [dns.google]}}|dns.nameservers.global: must be IP addresses or https:// resolver URLs; \"dns.google\" is neither",
            "dns: {nameservers: {split: {corp.example.com: [corp-dns]}}}|dns.nameservers.split: corp.example.com: must be IP addresses or https:// resolver URLs; \"corp-dns\" is neither",
            "dns: {base_domain: mesh.internal.}|dns.base_domain: must be a domain name without a trailing dot (got \"mesh.internal.\")",
            "dns: {search_domains: [\"a b\"]}|dns.search_domains: must be domain names; \"a b\" is not one",
            "dns: {extra_records: [{name: x.mesh.internal, type: CNAME, value: y.mesh.internal}]}|dns.extra_records: record 1 needs \"type\" A or AAAA (got {name=x.mesh.internal, type=CNAME, value=y.mesh.internal})",
            "dns: {extra_records: [{name: x.mesh.internal, type: AAAA, value: 100.64.0.3}]}|dns.extra_records: record 1 needs an IPv6 address in \"value\" (got {name=x.mesh.internal, type=AAAA, value=100.64.0.3})",
            "oidc: {issuer: login.example.com, client_id: svc}|oidc.issuer: must be an absolute http:// or https:// URL (got \"login.example.com\")",
            "oidc: {pkce: {method: S512}}|oidc.pkce.method: must be one of plain, S256 (got \"S512\")",
            "database: {sqlite: {path: \"\"}}|database.sqlite.path: must be a file path, not empty",
            "database: {sqlite: {wal_autocheckpoint: -1}}|database.sqlite.wal_autocheckpoint: must be from 0 to 2147483647 (got -1)",
            "tls_letsencrypt_challenge_type: DNS-01|tls_letsencrypt_challenge_type: must be one of HTTP-01, TLS-ALPN-01 (got \"DNS-01\")",
            "https_certificates: {dns_provider: route53}|https_certificates.dns_provider: must be one of none, rfc2136, command (got \"route53\")",
            "https_certificates: {rfc2136: {tsig_algorithm: hmac-md5}}|https_certificates.rfc2136.tsig_algorithm: must be one of hmac-sha256, hmac-sha512 (got \"hmac-md5\")",
            "https_certificates: {rfc2136: {tsig_secret: \"not base64!\"}}|https_certificates.rfc2136.tsig_secret: must be base64 (Illegal base64 character 20)",
            "https_certificates: {rfc2136: {server: ns1.example.com}}|https_certificates.rfc2136.server: must be host:port, e.g. 127.0.0.1:8080 (got \"ns1.example.com\")",
            "https_certificates: {record_lifetime: 5s}|https_certificates.record_lifetime: must be at least 30s (got \"5s\")",
    })
    void singleKeyRulesNameTheKeyAndTheValue(String yaml, String message) {
        assertEquals(List.of(message), ConfigFixture.messages(fixture.load(yaml + "\n")));
    }

    /** Found by ConfigFuzzTest: a path the platform refuses threw InvalidPathException out of the loader. */
    @Test
    void aPathWithANulCharacterIsReportedNotThrown() {
        LoadedConfig fromFile = fixture.load("derp: {paths: [\"maps/a\\0.yaml\"]}\n");
        assertTrue(ConfigFixture.messages(fromFile).getFirst().startsWith("derp.paths: is not a valid file path"),
                ConfigFixture.messages(fromFile).toString());
        LoadedConfig fromEnv = fixture.loadEnv(Map.of("SVC_DERP_PATHS", "a\u0000b"));
        assertTrue(ConfigFixture.messages(fromEnv).getFirst().startsWith("derp.paths: is not a valid file path"),
                ConfigFixture.messages(fromEnv).toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "tls_cert_path: cert.pem|tls_key_path: must be set together with tls_cert_path",
            "tls_key_path: key.pem|tls_cert_path: must be set together with tls_key_path",
            "{tls_cert_path: c.pem, tls_key_path: k.pem, tls_letsencrypt_hostname: mesh.example.com}|tls_letsencrypt_hostname: cannot be combined with tls_cert_path: choose one source of certificates",
            "prefixes: {v4: \"\", v6: \"\"}|prefixes.v4: must be set when prefixes.v6 is empty: nodes need addresses from at least one range",
            "policy: {mode: file}|policy.path: must be set when policy.mode is file",
            "oidc: {issuer: \"https://login.example.com\"}|oidc.client_id: must be set when oidc.issuer is set",
            "oidc: {client_secret: s3cret, client_secret_path: /run/secret}|oidc.client_secret_path: cannot be combined with oidc.client_secret: set one of them",
            "notifications: {smtp: {host: smtp.example.com}}|notifications.smtp.from: must be set when notifications.smtp.host is set",
            "notifications: {smtp: {password: s3cret}}|notifications.smtp.username: must be set when notifications.smtp.password is set",
            "dns: {base_domain: \"\"}|dns.base_domain: must be set while dns.magic_dns is true",
            "{server_url: \"https://mesh.example.com\", dns: {base_domain: example.com}}|dns.base_domain: must not contain the host of server_url (mesh.example.com): nodes would resolve it through MagicDNS and lose the server",
            "dns: {override_local_dns: true}|dns.nameservers.global: must list a resolver while dns.override_local_dns is true",
            "derp: {automatically_add_embedded_derp_region: false}|derp.paths: must name a DERP map file that lists the embedded relay when derp.automatically_add_embedded_derp_region is false",
            "derp: {update_frequency: 0s}|derp.update_frequency: must be more than 0s while derp.auto_update_enabled is true",
            "derp: {server: {mesh_with: [\"https://relay-b.example.com\"]}}|derp.server.mesh_key_path: must name the mesh key file when derp.server.mesh_with is set",
            "derp: {server: {mesh_key_path: /nonexistent/derp-mesh.key}}|derp.server.mesh_key_path: cannot be read: /nonexistent/derp-mesh.key",
            "{dns: {magic_dns: false}, https_certificates: {enabled: true, dns_provider: command, command: {path: /usr/local/bin/dns-hook}}}|https_certificates.enabled: needs dns.magic_dns: certificates are for the MagicDNS names of nodes",
            "https_certificates: {enabled: true}|https_certificates.dns_provider: must be rfc2136 or command while https_certificates.enabled is true: nodes prove their names with DNS records",
            "https_certificates: {dns_provider: command}|https_certificates.command.path: must be set when https_certificates.dns_provider is command",
            "https_certificates: {dns_provider: rfc2136, rfc2136: {server: \"127.0.0.1:53\", tsig_key_name: mesh}}|https_certificates.rfc2136.tsig_secret: must be set when https_certificates.dns_provider is rfc2136",
            "https_certificates: {dns_provider: rfc2136, rfc2136: {tsig_key_name: mesh, tsig_secret: c2VjcmV0}}|https_certificates.rfc2136.server: must be set when https_certificates.dns_provider is rfc2136",
            "https_certificates: {dns_provider: rfc2136, rfc2136: {server: \"127.0.0.1:53\", tsig_secret: c2VjcmV0}}|https_certificates.rfc2136.tsig_key_name: must be set when https_certificates.dns_provider is rfc2136: updates are signed with TSIG",
            "https_certificates: {dns_provider: rfc2136, rfc2136: {server: \"127.0.0.1:53\", zone: example.org, tsig_key_name: mesh, tsig_secret: c2VjcmV0}}|https_certificates.rfc2136.zone: must be dns.base_domain (mesh.internal) or a domain it is under: the names of nodes are in it (got \"example.org\")",
    })
    void rulesBetweenKeysNameTheKeyToChange(String yaml, String message) {
        assertEquals(List.of(message), ConfigFixture.messages(fixture.load(yaml + "\n")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "prefixes: {v4: 100.64.0.0/24, v6: \"fd7a:115c:a1e0:ab12::/64\"}",
            "prefixes: {v6: \"\"}",
            "listen_addr: \"[::]:8080\"",
            "cli: {address: \"http://127.0.0.1:8080\"}",
            "dns: {magic_dns: false, base_domain: \"\"}",
            "dns: {nameservers: {global: [\"2606:4700:4700::1111\", \"https://dns.nextdns.io/abc123\"]}, override_local_dns: true}",
            "{server_url: \"https://mesh.example.com\", dns: {base_domain: ts.example.com}}",
            "derp: {auto_update_enabled: false, update_frequency: 0s}",
            "{tls_cert_path: c.pem, tls_key_path: k.pem}",
            "notifications: {smtp: {host: smtp.example.com, from: mesh@example.com, username: mesh, password: s3cret}}",
            "control_dial_plan: [203.0.113.7, \"2001:db8::7\"]",
            "node: {routes: {ha_probe_interval: 0s}}",
            "https_certificates: {enabled: true, dns_provider: command, command: {path: /usr/local/bin/dns-hook}}",
            "https_certificates: {enabled: true, dns_provider: rfc2136, rfc2136: {server: \"192.0.2.53:53\", zone: internal, tsig_key_name: mesh-key, tsig_algorithm: HMAC-SHA512, tsig_secret: c2VjcmV0}}",
    })
    void acceptableValuesPass(String yaml) {
        LoadedConfig loaded = fixture.load(yaml + "\n");
        assertEquals(List.of(), ConfigFixture.errors(loaded));
    }

    @Test
    void everyBadKeyIsNamedNotJustTheFirst() {
        String yaml = """
                listen_addr: nowhere
                log:
                  level: loud
                client_updates:
                  interval: 10m
                notifications:
                  smtp:
                    encryption: ssl
                    port: many
                derp:
                  server:
                    enabled: sometimes
                """;
        LoadedConfig loaded = fixture.load(yaml, Map.of("SVC_CLI_ADDRESS", "gopher://x", "SVC_NODE_EXPIRY", "soon"));
        assertFalse(loaded.valid());
        assertEquals(List.of(
                "listen_addr: must be host:port, e.g. 127.0.0.1:8080 (got \"nowhere\")",
                "log.level: must be one of panic, fatal, error, warn, info, debug, trace (got \"loud\")",
                "derp.server.enabled: must be true or false (or 1/0, yes/no) (got \"sometimes\")",
                "node.expiry: must be a duration such as 90s, 30m or 720h: not a duration: \"soon\" (use e.g. 90s, 30m or 720h); set by SVC_NODE_EXPIRY",
                "notifications.smtp.port: must be a whole number (got \"many\")",
                "notifications.smtp.encryption: must be one of starttls, tls, none (got \"ssl\")",
                "client_updates.interval: must be at least 1h (got \"10m\")",
                "cli.address: must be an absolute http:// or https:// URL (got \"gopher://x\"); set by SVC_CLI_ADDRESS"),
                ConfigFixture.messages(loaded));
    }

    @Test
    void badKeysFallBackToDefaultsSoTheRestIsStillUsable() {
        LoadedConfig loaded = fixture.load("""
                log:
                  level: loud
                  format: json
                """);
        assertFalse(loaded.valid());
        assertEquals(LogLevel.INFO, loaded.config().log().level());
        assertEquals(MeshConfig.Log.Format.JSON, loaded.config().log().format());
    }

    @Test
    void problemPrintsAsKeyColonReason() {
        ConfigProblem problem = new ConfigProblem("log.level",
                "must be one of panic, fatal, error, warn, info, debug, trace (got \"loud\")");
        assertEquals("log.level: must be one of panic, fatal, error, warn, info, debug, trace (got \"loud\")", problem.toString());
    }

    @Test
    void choicesIgnoreCaseAndKeepTheSchemaSpelling() {
        LoadedConfig loaded = fixture.load("tls_letsencrypt_challenge_type: tls-alpn-01\noidc: {pkce: {method: s256}}\n");
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(MeshConfig.LetsEncrypt.Challenge.TLS_ALPN_01, loaded.config().tls().letsEncrypt().challengeType());
        assertEquals(MeshConfig.Pkce.Method.S256, loaded.config().oidc().pkce().method());
    }
}
