package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One DERP relay (and STUN server). Go: {@code tailcfg.DERPNode}. Build one with {@link #builder()}.
 *
 * @param name a unique name ("900a"); always written
 * @param regionId the region it belongs to; always written
 * @param hostName the name to dial and, without {@code certName}, to check the TLS certificate against; always written
 * @param certName the expected certificate name, or "sha256-raw:&lt;hex&gt;" to pin a self-signed certificate; absent
 *     means {@code hostName}
 * @param ipv4 an IPv4 address to dial instead of resolving, or "none" to never use IPv4; absent means resolve
 * @param ipv6 the same for IPv6
 * @param stunPort the STUN port; absent (0) means 3478, -1 disables STUN
 * @param stunOnly whether it serves only STUN, no DERP; absent means false
 * @param derpPort the DERP (HTTPS) port; absent (0) means 443
 * @param insecureForTests skip TLS verification (tests only); absent means false
 * @param stunTestIp the address STUN probes use in tests; absent normally
 * @param canPort80 whether it answers {@code http://<IPv4>/generate_204} for captive-portal detection; absent means
 *     false
 */
public record DERPNode(
        @JsonProperty("Name") String name,
        @JsonProperty("RegionID") int regionId,
        @JsonProperty("HostName") String hostName,
        @JsonProperty("CertName") @OmitEmpty String certName,
        @JsonProperty("IPv4") @OmitEmpty String ipv4,
        @JsonProperty("IPv6") @OmitEmpty String ipv6,
        @JsonProperty("STUNPort") @OmitEmpty int stunPort,
        @JsonProperty("STUNOnly") @OmitEmpty boolean stunOnly,
        @JsonProperty("DERPPort") @OmitEmpty int derpPort,
        @JsonProperty("InsecureForTests") @OmitEmpty boolean insecureForTests,
        @JsonProperty("STUNTestIP") @OmitEmpty String stunTestIp,
        @JsonProperty("CanPort80") @OmitEmpty boolean canPort80) {

    /** The value of {@code IPv4}/{@code IPv6} that disables an address family. */
    public static final String NONE = "none";
    /** The {@code STUNPort} that disables STUN. */
    public static final int STUN_DISABLED = -1;

    public DERPNode {
        name = Copies.text(name);
        hostName = Copies.text(hostName);
        certName = Copies.text(certName);
        ipv4 = Copies.text(ipv4);
        ipv6 = Copies.text(ipv6);
        stunTestIp = Copies.text(stunTestIp);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link DERPNode}; every field starts absent. Not thread-safe. */
    public static final class Builder {
        private String name;
        private int regionId;
        private String hostName;
        private String certName;
        private String ipv4;
        private String ipv6;
        private int stunPort;
        private boolean stunOnly;
        private int derpPort;
        private boolean insecureForTests;
        private String stunTestIp;
        private boolean canPort80;

        private Builder() {
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder regionId(int value) {
            regionId = value;
            return this;
        }

        public Builder hostName(String value) {
            hostName = value;
            return this;
        }

        public Builder certName(String value) {
            certName = value;
            return this;
        }

        public Builder ipv4(String value) {
            ipv4 = value;
            return this;
        }

        public Builder ipv6(String value) {
            ipv6 = value;
            return this;
        }

        public Builder stunPort(int value) {
            stunPort = value;
            return this;
        }

        public Builder stunOnly(boolean value) {
            stunOnly = value;
            return this;
        }

        public Builder derpPort(int value) {
            derpPort = value;
            return this;
        }

        public Builder insecureForTests(boolean value) {
            insecureForTests = value;
            return this;
        }

        public Builder stunTestIp(String value) {
            stunTestIp = value;
            return this;
        }

        public Builder canPort80(boolean value) {
            canPort80 = value;
            return this;
        }

        public DERPNode build() {
            return new DERPNode(name, regionId, hostName, certName, ipv4, ipv6, stunPort, stunOnly, derpPort,
                    insecureForTests, stunTestIp, canPort80);
        }
    }
}
