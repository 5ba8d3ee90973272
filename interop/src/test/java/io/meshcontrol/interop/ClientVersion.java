package io.meshcontrol.interop;

/**
 * One pinned Tailscale release from {@code interop/versions.env}.
 *
 * @param pin               the pin's name in that file ({@code NEWEST}, {@code OLDEST})
 * @param version           the tailscale.com module version, e.g. {@code v1.80.3}
 * @param capabilityVersion tailcfg.CurrentCapabilityVersion of that release (what the client sends as {@code ?v=})
 * @param goToolchain       the Go toolchain install-clients.sh builds it with
 */
public record ClientVersion(String pin, String version, int capabilityVersion, String goToolchain) {

    /** The version as the binaries print it: {@code 1.80.3}. */
    public String number() {
        return version.substring(1);
    }

    /** Shown as the parameterized test's name. */
    @Override
    public String toString() {
        return version + " (capver " + capabilityVersion + ")";
    }
}
