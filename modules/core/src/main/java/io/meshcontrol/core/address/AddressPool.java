package io.meshcontrol.core.address;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpPrefix;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Hands out node addresses: an IPv4 address from {@code prefixes.v4} and the IPv6 address of
 * {@code prefixes.v6} whose last 32 bits are that IPv4 address, so the pair is unique when the IPv4
 * address is. Addresses the clients reserve for themselves are never handed out.
 *
 * <p>Sequential allocation goes on after the last address this pool handed out and wraps around at the prefix's end,
 * so a free address is found in a probe or two however many are taken (a search from the prefix's start probed every
 * taken one: a cost that grew with the network on every registration). An address freed by a deleted node comes
 * back after the wrap, not to the next machine that joins.
 */
public final class AddressPool {

    /** Tailscale's DNS resolver (100.100.100.100) and its /24, and the ChromeOS range 100.115.92.0/23. */
    private static final long[][] RESERVED = {
            {ipv4("100.100.100.0"), 24},
            {ipv4("100.115.92.0"), 23},
    };

    public enum Allocation { SEQUENTIAL, RANDOM }

    /** One node's pair of addresses, in text form without prefix length. */
    public record Addresses(String ipv4, String ipv6) {
    }

    private final long first;
    private final long last;
    private final byte[] v6Prefix;
    private final Allocation allocation;
    private final SecureRandom random = new SecureRandom();
    /** Sequential: where the next search starts (a hint: each candidate is still probed). */
    private final AtomicLong next;

    public AddressPool(String v4Cidr, String v6Cidr, Allocation allocation) {
        IpPrefix v4 = IpPrefix.parse(v4Cidr);
        IpPrefix v6 = IpPrefix.parse(v6Cidr);
        if (!v4.address().isIpv4() || v6.address().isIpv4() || v6.bits() > 96) {
            throw new IllegalArgumentException("need an IPv4 prefix and an IPv6 prefix of /96 or shorter");
        }
        long network = toLong(v4.address().bytes()) & mask(v4.bits());
        long size = 1L << (32 - v4.bits());
        this.first = size > 2 ? network + 1 : network;
        this.last = size > 2 ? network + size - 2 : network + size - 1;
        this.v6Prefix = v6.address().bytes();
        this.allocation = allocation;
        this.next = new AtomicLong(first);
    }

    /**
     * A free pair. {@code taken} says whether an IPv4 address is held already (a node's or a service's): one indexed
     * lookup per candidate, in the transaction that writes the new holder.
     */
    public Addresses allocate(Predicate<String> taken) {
        long count = last - first + 1;
        long start = allocation == Allocation.RANDOM ? first + Math.floorMod(random.nextLong(), count) : next.get();
        for (long i = 0; i < count; i++) {
            long candidate = first + Math.floorMod(start - first + i, count);
            if (!isReserved(candidate) && !taken.test(text4(candidate))) {
                next.set(candidate == last ? first : candidate + 1);
                return new Addresses(text4(candidate), text6(candidate));
            }
        }
        throw MeshException.conflict("no free address left in the IPv4 prefix");
    }

    /**
     * The pair for an address chosen by hand ({@code POST /device/{id}/ip}): it must lie in the IPv4 prefix (not its
     * network or broadcast address) and outside the ranges the clients reserve; whether it is free is the caller's
     * check, as for {@link #allocate}.
     */
    public Addresses claim(String ipv4) {
        IpAddress address;
        try {
            address = IpAddress.parse(ipv4);
        } catch (RuntimeException e) {
            throw MeshException.invalid("\"" + ipv4 + "\" is not an IPv4 address");
        }
        if (!address.isIpv4()) {
            throw MeshException.invalid("\"" + ipv4 + "\" is not an IPv4 address");
        }
        long value = toLong(address.bytes());
        if (value < first || value > last || isReserved(value)) {
            throw MeshException.invalid("address " + text4(value) + " is outside the network's IPv4 prefix or reserved");
        }
        return new Addresses(text4(value), text6(value));
    }

    private static boolean isReserved(long address) {
        for (long[] range : RESERVED) {
            if ((address & mask((int) range[1])) == range[0]) {
                return true;
            }
        }
        return false;
    }

    private String text6(long v4) {
        byte[] bytes = v6Prefix.clone();
        bytes[12] = (byte) (v4 >>> 24);
        bytes[13] = (byte) (v4 >>> 16);
        bytes[14] = (byte) (v4 >>> 8);
        bytes[15] = (byte) v4;
        return IpAddress.of(bytes).toString();
    }

    private static String text4(long address) {
        return ((address >>> 24) & 0xff) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "."
                + (address & 0xff);
    }

    private static long mask(int bits) {
        return bits == 0 ? 0 : (0xffffffffL << (32 - bits)) & 0xffffffffL;
    }

    private static long toLong(byte[] bytes) {
        return ((bytes[0] & 0xffL) << 24) | ((bytes[1] & 0xffL) << 16) | ((bytes[2] & 0xffL) << 8) | (bytes[3] & 0xffL);
    }

    private static long ipv4(String text) {
        return toLong(IpAddress.parse(text).bytes());
    }
}
