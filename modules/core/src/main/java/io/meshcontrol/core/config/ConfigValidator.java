package io.meshcontrol.core.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rules that involve more than one key. Single-key rules (types, choices, ranges, address forms) are declared with
 * the key in {@link ConfigSchema}; these run afterwards on the settled values and name the key to change.
 */
final class ConfigValidator {

    private final ResolvedValues v;
    private final List<ConfigProblem> problems = new ArrayList<>();

    private ConfigValidator(ResolvedValues values) {
        this.v = values;
    }

    static List<ConfigProblem> validate(ResolvedValues values) {
        ConfigValidator validator = new ConfigValidator(values);
        validator.tls();
        validator.postgres();
        validator.prefixes();
        validator.policy();
        validator.derp();
        validator.dns();
        validator.oidc();
        validator.smtp();
        validator.httpsCertificates();
        return List.copyOf(validator.problems);
    }

    private void tls() {
        boolean cert = v.optional("tls_cert_path").isPresent();
        boolean key = v.optional("tls_key_path").isPresent();
        if (cert && !key) {
            report("tls_key_path", "must be set together with tls_cert_path");
        }
        if (key && !cert) {
            report("tls_cert_path", "must be set together with tls_key_path");
        }
        if (cert && v.optional("tls_letsencrypt_hostname").isPresent()) {
            report("tls_letsencrypt_hostname", "cannot be combined with tls_cert_path: choose one source of certificates");
        }
    }

    private void postgres() {
        if (v.choice("database.type", MeshConfig.Database.Type.class) != MeshConfig.Database.Type.POSTGRES) {
            return;
        }
        v.optional("database.postgres.password_file").map(java.nio.file.Path::of)
                .filter(file -> !java.nio.file.Files.isReadable(file))
                .ifPresent(file -> report("database.postgres.password_file", "cannot be read: " + file));
    }

    private void prefixes() {
        if (v.string("prefixes.v4").isEmpty() && v.string("prefixes.v6").isEmpty()) {
            report("prefixes.v4", "must be set when prefixes.v6 is empty: nodes need addresses from at least one range");
        }
    }

    private void policy() {
        if (v.choice("policy.mode", MeshConfig.Policy.Mode.class) == MeshConfig.Policy.Mode.FILE
                && v.optional("policy.path").isEmpty()) {
            report("policy.path", "must be set when policy.mode is file");
        }
    }

    private void derp() {
        if (v.bool("derp.server.enabled") && !v.bool("derp.automatically_add_embedded_derp_region")
                && v.stringList("derp.paths").isEmpty()) {
            report("derp.paths", "must name a DERP map file that lists the embedded relay when "
                    + "derp.automatically_add_embedded_derp_region is false");
        }
        if (!v.stringList("derp.server.mesh_with").isEmpty() && v.optional("derp.server.mesh_key_path").isEmpty()) {
            report("derp.server.mesh_key_path", "must name the mesh key file when derp.server.mesh_with is set");
        }
        v.optional("derp.server.mesh_key_path").map(java.nio.file.Path::of)
                .filter(file -> !java.nio.file.Files.isReadable(file))
                .ifPresent(file -> report("derp.server.mesh_key_path", "cannot be read: " + file));
        if (v.bool("derp.auto_update_enabled") && v.duration("derp.update_frequency").isZero()) {
            report("derp.update_frequency", "must be more than 0s while derp.auto_update_enabled is true");
        }
    }

    private void dns() {
        String baseDomain = v.string("dns.base_domain").toLowerCase(Locale.ROOT);
        if (v.bool("dns.magic_dns") && baseDomain.isEmpty()) {
            report("dns.base_domain", "must be set while dns.magic_dns is true");
        }
        String serverHost = serverHost();
        if (!baseDomain.isEmpty() && (serverHost.equals(baseDomain) || serverHost.endsWith("." + baseDomain))) {
            report("dns.base_domain", "must not contain the host of server_url (" + serverHost
                    + "): nodes would resolve it through MagicDNS and lose the server");
        }
        if (v.bool("dns.override_local_dns") && v.stringList("dns.nameservers.global").isEmpty()) {
            report("dns.nameservers.global", "must list a resolver while dns.override_local_dns is true");
        }
    }

    private void oidc() {
        if (v.optional("oidc.client_secret").isPresent() && v.optional("oidc.client_secret_path").isPresent()) {
            report("oidc.client_secret_path", "cannot be combined with oidc.client_secret: set one of them");
        }
        if (v.optional("oidc.issuer").isPresent() && v.string("oidc.client_id").isEmpty()) {
            report("oidc.client_id", "must be set when oidc.issuer is set");
        }
        if (v.optional("oidc.issuer").isPresent() && !v.stringList("oidc.scope").contains("openid")) {
            report("oidc.scope", "must include openid: without it the issuer sends no ID token");
        }
    }

    private void smtp() {
        if (v.optional("notifications.smtp.host").isPresent() && v.string("notifications.smtp.from").isEmpty()) {
            report("notifications.smtp.from", "must be set when notifications.smtp.host is set");
        }
        if (v.optional("notifications.smtp.password").isPresent() && v.optional("notifications.smtp.username").isEmpty()) {
            report("notifications.smtp.username", "must be set when notifications.smtp.password is set");
        }
    }

    private void httpsCertificates() {
        var provider = v.choice("https_certificates.dns_provider", MeshConfig.HttpsCertificates.Provider.class);
        if (v.bool("https_certificates.enabled")) {
            if (!v.bool("dns.magic_dns")) {
                report("https_certificates.enabled", "needs dns.magic_dns: certificates are for the MagicDNS names of nodes");
            }
            if (provider == MeshConfig.HttpsCertificates.Provider.NONE) {
                report("https_certificates.dns_provider", "must be rfc2136 or command while https_certificates.enabled "
                        + "is true: nodes prove their names with DNS records");
            }
        }
        if (provider == MeshConfig.HttpsCertificates.Provider.RFC2136) {
            for (String key : List.of("server", "tsig_secret")) {
                String path = "https_certificates.rfc2136." + key;
                if (v.optional(path).filter(text -> !text.isEmpty()).isEmpty()) {
                    report(path, "must be set when https_certificates.dns_provider is rfc2136");
                }
            }
            String zone = v.string("https_certificates.rfc2136.zone").toLowerCase(Locale.ROOT);
            String baseDomain = v.string("dns.base_domain").toLowerCase(Locale.ROOT);
            if (!zone.isEmpty() && !baseDomain.equals(zone) && !baseDomain.endsWith("." + zone)) {
                report("https_certificates.rfc2136.zone", "must be dns.base_domain (" + baseDomain
                        + ") or a domain it is under: the names of nodes are in it (got \"" + zone + "\")");
            }
            if (v.string("https_certificates.rfc2136.tsig_key_name").isEmpty()) {
                report("https_certificates.rfc2136.tsig_key_name",
                        "must be set when https_certificates.dns_provider is rfc2136: updates are signed with TSIG");
            }
        }
        if (provider == MeshConfig.HttpsCertificates.Provider.COMMAND
                && v.optional("https_certificates.command.path").isEmpty()) {
            report("https_certificates.command.path", "must be set when https_certificates.dns_provider is command");
        }
    }

    private String serverHost() {
        String host = URI.create(v.string("server_url")).getHost();
        return host == null ? "" : host.toLowerCase(Locale.ROOT);
    }

    private void report(String key, String reason) {
        problems.add(new ConfigProblem(key, reason));
    }
}
