package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.IpAddress;
import io.meshcontrol.core.wire.IpPrefix;

/** IP addresses and prefixes as they appear in policies (hosts, rule aliases), and containment. */
public final class IpLiterals {

    private IpLiterals() {
    }

    public static boolean isAddressOrPrefix(String text) {
        try {
            prefix(text);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** An address as a single-address prefix, or the prefix itself. */
    public static IpPrefix prefix(String text) {
        return text.contains("/") ? IpPrefix.parse(text) : IpPrefix.single(IpAddress.parse(text));
    }

    public static boolean contains(IpPrefix prefix, String address) {
        byte[] net = prefix.address().bytes();
        byte[] ip = IpAddress.parse(address).bytes();
        if (net.length != ip.length) {
            return false;
        }
        int bits = prefix.bits();
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >>> (i % 8);
            if ((net[i / 8] & mask) != (ip[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
