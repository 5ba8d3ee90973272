package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.wire.DNSConfig;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The names a node may get TLS certificates for ({@code https_certificates}, {@code tailscale cert}): its own MagicDNS
 * name and nothing else (no wildcard: the subdomain capability is never given). The map's {@code CertDomains} and the
 * check of {@code /machine/set-dns} both come from here, so a node is never offered a name it may not prove, nor let
 * prove a name it was not offered. None without MagicDNS, whose names these are, and none for a node that is not
 * admitted (waiting for approval, suspended).
 */
public final class CertDomains {

    /** The ACME DNS-01 record of a name is this prefix plus the name (RFC 8555, section 8.4). */
    public static final String CHALLENGE_PREFIX = "_acme-challenge.";

    /** The capability the vendor's clients look for before serving HTTPS ({@code tailscale serve}). */
    static final String HTTPS_CAPABILITY = "https";

    private CertDomains() {
    }

    /** The certificate names of {@code node}: its FQDN without the trailing dot, or none (also while not admitted). */
    public static List<String> of(Node node, MapContext context) {
        if (!context.httpsCertificates() || !context.dnsConfig().proxied() || context.baseDomain().isEmpty()
                || !node.admitted()) {
            return List.of();
        }
        return List.of((node.givenName() + "." + context.baseDomain()).toLowerCase(Locale.ROOT));
    }

    /**
     * The certificate name whose challenge record {@code recordName} is ({@code _acme-challenge.<name>}, case and a
     * trailing dot aside), if it is one of {@code node}'s.
     */
    public static Optional<String> challengedName(String recordName, Node node, MapContext context) {
        String name = recordName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        if (!name.startsWith(CHALLENGE_PREFIX)) {
            return Optional.empty();
        }
        String certName = name.substring(CHALLENGE_PREFIX.length());
        return of(node, context).contains(certName) ? Optional.of(certName) : Optional.empty();
    }

    /** {@code dns} as {@code self} gets it: with its certificate names. */
    static DNSConfig addedTo(DNSConfig dns, Node self, MapContext context) {
        List<String> names = of(self, context);
        return names.isEmpty() ? dns : dns.withCertDomains(names);
    }
}
