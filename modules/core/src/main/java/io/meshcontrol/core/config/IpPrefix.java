package io.meshcontrol.core.config;

import java.util.Arrays;

/** A CIDR prefix such as {@code 100.64.0.0/10}, enough to check that configured ranges sit where clients expect. */
record IpPrefix(byte[] address, int bits) {

    /** @throws IllegalArgumentException when the text is not {@code <ip>/<bits>} */
    static IpPrefix parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("must be a CIDR prefix such as 100.64.0.0/10 (got " + Quote.of(text) + ")");
        }
        byte[] address = IpAddresses.parse(text.substring(0, slash)).orElseThrow(() ->
                new IllegalArgumentException("is not an IP prefix: " + Quote.of(text)));
        String bitsText = text.substring(slash + 1);
        int bits;
        try {
            bits = bitsText.matches("\\d{1,3}") ? Integer.parseInt(bitsText) : -1;
        } catch (NumberFormatException e) {
            bits = -1;
        }
        if (bits < 0 || bits > address.length * 8) {
            throw new IllegalArgumentException("has an invalid prefix length: " + Quote.of(text));
        }
        return new IpPrefix(address, bits);
    }

    boolean isIpv4() {
        return address.length == 4;
    }

    /** True when no address bit beyond the prefix length is set, as in {@code 100.64.0.0/10}. */
    boolean isCanonical() {
        return Arrays.equals(address, masked(address, bits));
    }

    boolean contains(IpPrefix inner) {
        return inner.address.length == address.length
                && inner.bits >= bits
                && Arrays.equals(masked(inner.address, bits), masked(address, bits));
    }

    private static byte[] masked(byte[] address, int bits) {
        byte[] result = address.clone();
        for (int i = 0; i < result.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            result[i] &= (byte) (0xff << (8 - keep));
        }
        return result;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpPrefix that && bits == that.bits && Arrays.equals(address, that.address);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(address) + bits;
    }

    @Override
    public String toString() {
        return Arrays.toString(address) + "/" + bits;
    }
}
