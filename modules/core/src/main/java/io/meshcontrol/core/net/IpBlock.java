package io.meshcontrol.core.net;

import java.util.ArrayList;
import java.util.List;

/**
 * A contiguous run of addresses of one family, first to last inclusive: what a prefix, a single address or a range
 * {@code a-b} in a policy stands for. Addresses are held as two unsigned 64-bit halves (IPv4 in the low half) so that
 * containment tests over thousands of nodes stay cheap. Immutable.
 */
public record IpBlock(boolean v6, long firstHigh, long firstLow, long lastHigh, long lastLow) {

    /** The block a prefix covers; bits beyond the prefix length are ignored, as the vendor does. */
    public static IpBlock of(IpPrefix prefix) {
        long[] address = halves(prefix.address());
        int width = prefix.address().bitLength();
        int hostBits = width - prefix.bits();
        long[] first = mask(address, hostBits, false);
        long[] last = mask(address, hostBits, true);
        return new IpBlock(width == 128, first[0], first[1], last[0], last[1]);
    }

    public static IpBlock of(IpAddress address) {
        long[] value = halves(address);
        return new IpBlock(!address.isIpv4(), value[0], value[1], value[0], value[1]);
    }

    /** A prefix ({@code 10.0.0.0/8}), an address, or a range {@code a-b}; throws IllegalArgumentException otherwise. */
    public static IpBlock parse(String text) {
        int dash = text.indexOf('-');
        if (dash > 0) {
            IpBlock first = of(IpAddress.parse(text.substring(0, dash)));
            IpBlock last = of(IpAddress.parse(text.substring(dash + 1)));
            if (first.v6 != last.v6 || compare(first.firstHigh, first.firstLow, last.firstHigh, last.firstLow) > 0) {
                throw new IllegalArgumentException("bad range " + text);
            }
            return new IpBlock(first.v6, first.firstHigh, first.firstLow, last.firstHigh, last.firstLow);
        }
        return text.contains("/") ? of(IpPrefix.parse(text)) : of(IpAddress.parse(text));
    }

    public boolean contains(IpBlock other) {
        return v6 == other.v6 && compare(firstHigh, firstLow, other.firstHigh, other.firstLow) <= 0
                && compare(other.lastHigh, other.lastLow, lastHigh, lastLow) <= 0;
    }

    public boolean overlaps(IpBlock other) {
        return v6 == other.v6 && compare(firstHigh, firstLow, other.lastHigh, other.lastLow) <= 0
                && compare(other.firstHigh, other.firstLow, lastHigh, lastLow) <= 0;
    }

    /** Whether this is all addresses of its family ({@code 0.0.0.0/0} or {@code ::/0}). */
    public boolean isEverything() {
        return firstHigh == 0 && firstLow == 0 && lastLow == (v6 ? -1L : 0xFFFFFFFFL) && lastHigh == (v6 ? -1L : 0);
    }

    /** The parts of this block outside {@code hole}, in address order. */
    public List<IpBlock> minus(IpBlock hole) {
        if (!overlaps(hole)) {
            return List.of(this);
        }
        List<IpBlock> parts = new ArrayList<>(2);
        if (compare(firstHigh, firstLow, hole.firstHigh, hole.firstLow) < 0) {
            long[] before = decrement(hole.firstHigh, hole.firstLow);
            parts.add(new IpBlock(v6, firstHigh, firstLow, before[0], before[1]));
        }
        if (compare(hole.lastHigh, hole.lastLow, lastHigh, lastLow) < 0) {
            long[] after = increment(hole.lastHigh, hole.lastLow);
            parts.add(new IpBlock(v6, after[0], after[1], lastHigh, lastLow));
        }
        return parts;
    }

    /** As the vendor writes an address set: a CIDR when the block is exactly one prefix, else {@code first-last}. */
    public String format() {
        int bits = prefixLength();
        String first = address(firstHigh, firstLow).toString();
        if (bits >= 0) {
            return first + "/" + bits;
        }
        return first + "-" + address(lastHigh, lastLow);
    }

    /** Always {@code first-last}, as the vendor writes the internet ranges (even where one is a prefix). */
    public String formatRange() {
        return address(firstHigh, firstLow) + "-" + address(lastHigh, lastLow);
    }

    /** The length of the prefix this block is exactly, or -1 when it is no prefix. */
    private int prefixLength() {
        int width = v6 ? 128 : 32;
        for (int hostBits = 0; hostBits <= width; hostBits++) {
            long[] start = mask(new long[] {firstHigh, firstLow}, hostBits, false);
            long[] end = mask(new long[] {firstHigh, firstLow}, hostBits, true);
            if (start[0] != firstHigh || start[1] != firstLow) {
                return -1;
            }
            if (end[0] == lastHigh && end[1] == lastLow) {
                return width - hostBits;
            }
        }
        return -1;
    }

    private IpAddress address(long high, long low) {
        byte[] bytes = new byte[v6 ? 16 : 4];
        if (v6) {
            for (int i = 0; i < 8; i++) {
                bytes[i] = (byte) (high >>> (56 - 8 * i));
                bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
            }
        } else {
            for (int i = 0; i < 4; i++) {
                bytes[i] = (byte) (low >>> (24 - 8 * i));
            }
        }
        return IpAddress.of(bytes);
    }

    private static long[] halves(IpAddress address) {
        byte[] bytes = address.bytes();
        long high = 0;
        long low = 0;
        if (bytes.length == 4) {
            for (byte b : bytes) {
                low = (low << 8) | (b & 0xff);
            }
        } else {
            for (int i = 0; i < 8; i++) {
                high = (high << 8) | (bytes[i] & 0xff);
                low = (low << 8) | (bytes[8 + i] & 0xff);
            }
        }
        return new long[] {high, low};
    }

    /** The value with its lowest {@code hostBits} bits cleared (or set). */
    private static long[] mask(long[] value, int hostBits, boolean set) {
        long lowMask = hostBits >= 64 ? -1L : (1L << hostBits) - 1;
        long highMask = hostBits <= 64 ? 0 : hostBits >= 128 ? -1L : (1L << (hostBits - 64)) - 1;
        return set ? new long[] {value[0] | highMask, value[1] | lowMask}
                : new long[] {value[0] & ~highMask, value[1] & ~lowMask};
    }

    private static int compare(long aHigh, long aLow, long bHigh, long bLow) {
        int high = Long.compareUnsigned(aHigh, bHigh);
        return high != 0 ? high : Long.compareUnsigned(aLow, bLow);
    }

    private static long[] decrement(long high, long low) {
        return low == 0 ? new long[] {high - 1, -1L} : new long[] {high, low - 1};
    }

    private static long[] increment(long high, long low) {
        return low == -1L ? new long[] {high + 1, 0} : new long[] {high, low + 1};
    }
}
