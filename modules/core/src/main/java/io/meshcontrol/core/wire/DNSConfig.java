package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpAddress;
import java.util.List;
import java.util.Map;

/**
 * The DNS settings of a node. Go: {@code tailcfg.DNSConfig}. In a map message an absent DNSConfig means unchanged, and
 * a present one replaces the previous one whole. Every field is left out when empty. Build one with
 * {@link #builder()}.
 *
 * @param resolvers the default resolvers, in order; absent means the OS's own
 * @param routes split DNS: resolvers per domain suffix (no leading dot); a {@code null} or empty value means "answer
 *     from {@code extraRecords} through 100.100.100.100"
 * @param fallbackResolvers resolvers used only when split DNS needs defaults and the OS has none
 * @param domains search domains, without trailing dot
 * @param proxied whether MagicDNS is on
 * @param nameservers deprecated (capver 9..13) plain nameserver addresses
 * @param certDomains names the server will get certificates for through {@code /machine/set-dns}
 * @param extraRecords extra DNS records MagicDNS answers
 * @param exitNodeFilteredSet suffixes an exit node's DNS proxy must not answer for
 * @param tempCorpIssue13969 a temporary field of Tailscale's; absent normally
 */
public record DNSConfig(
        @JsonProperty("Resolvers") @OmitEmpty List<DNSResolver> resolvers,
        @JsonProperty("Routes") @OmitEmpty Map<String, List<DNSResolver>> routes,
        @JsonProperty("FallbackResolvers") @OmitEmpty List<DNSResolver> fallbackResolvers,
        @JsonProperty("Domains") @OmitEmpty List<String> domains,
        @JsonProperty("Proxied") @OmitEmpty boolean proxied,
        @JsonProperty("Nameservers") @OmitEmpty List<IpAddress> nameservers,
        @JsonProperty("CertDomains") @OmitEmpty List<String> certDomains,
        @JsonProperty("ExtraRecords") @OmitEmpty List<DNSRecord> extraRecords,
        @JsonProperty("ExitNodeFilteredSet") @OmitEmpty List<String> exitNodeFilteredSet,
        @JsonProperty("TempCorpIssue13969") @OmitEmpty String tempCorpIssue13969) {

    public DNSConfig {
        resolvers = Copies.orEmpty(resolvers);
        routes = Copies.orEmpty(routes);
        fallbackResolvers = Copies.orEmpty(fallbackResolvers);
        domains = Copies.orEmpty(domains);
        nameservers = Copies.orEmpty(nameservers);
        certDomains = Copies.orEmpty(certDomains);
        extraRecords = Copies.orEmpty(extraRecords);
        exitNodeFilteredSet = Copies.orEmpty(exitNodeFilteredSet);
        tempCorpIssue13969 = Copies.text(tempCorpIssue13969);
    }

    /** The same settings with {@code names} as the certificate names. */
    public DNSConfig withCertDomains(List<String> names) {
        return new DNSConfig(resolvers, routes, fallbackResolvers, domains, proxied, nameservers, names, extraRecords,
                exitNodeFilteredSet, tempCorpIssue13969);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link DNSConfig}; every field starts absent. Not thread-safe. */
    public static final class Builder {
        private List<DNSResolver> resolvers;
        private Map<String, List<DNSResolver>> routes;
        private List<DNSResolver> fallbackResolvers;
        private List<String> domains;
        private boolean proxied;
        private List<IpAddress> nameservers;
        private List<String> certDomains;
        private List<DNSRecord> extraRecords;
        private List<String> exitNodeFilteredSet;

        private Builder() {
        }

        public Builder resolvers(List<DNSResolver> value) {
            resolvers = value;
            return this;
        }

        public Builder routes(Map<String, List<DNSResolver>> value) {
            routes = value;
            return this;
        }

        public Builder fallbackResolvers(List<DNSResolver> value) {
            fallbackResolvers = value;
            return this;
        }

        public Builder domains(List<String> value) {
            domains = value;
            return this;
        }

        public Builder proxied(boolean value) {
            proxied = value;
            return this;
        }

        public Builder nameservers(List<IpAddress> value) {
            nameservers = value;
            return this;
        }

        public Builder certDomains(List<String> value) {
            certDomains = value;
            return this;
        }

        public Builder extraRecords(List<DNSRecord> value) {
            extraRecords = value;
            return this;
        }

        public Builder exitNodeFilteredSet(List<String> value) {
            exitNodeFilteredSet = value;
            return this;
        }

        public DNSConfig build() {
            return new DNSConfig(resolvers, routes, fallbackResolvers, domains, proxied, nameservers, certDomains,
                    extraRecords, exitNodeFilteredSet, "");
        }
    }
}
