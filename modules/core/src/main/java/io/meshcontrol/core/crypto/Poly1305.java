package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Poly1305 (RFC 8439, section 2.5) as ChaCha20-Poly1305 feeds it: every input is whole 16-byte blocks, because the
 * AEAD pads its associated data and ciphertext with zeros to a block boundary and ends with a block of two lengths.
 *
 * <p>The accumulator and key are five 26-bit limbs in {@code long}s, so each product and each sum of five fits without
 * overflow and no 128-bit arithmetic is needed. The arithmetic is branch-free (constant time in the key and message).
 *
 * <p><b>Why not the JDK's.</b> Without AVX-512 the JDK computes Poly1305 in generic Java field arithmetic, about
 * 500 MB/s on our 2-core machine, and it was half the cost of sealing a map stream (issue 22, run 32's profile).
 * This one runs at about 1 GB/s there. {@code ChaChaPolyTest} checks it against the JDK's whole AEAD.
 *
 * <p>Not thread-safe; {@link #start} makes it reusable for the next message.
 */
final class Poly1305 {

    private static final int KEY_LENGTH = 32;
    static final int TAG_LENGTH = 16;
    private static final int BLOCK_LENGTH = 16;

    private static final long LIMB = 0x3ffffff;
    /** The 2^128 bit each whole block carries above its 16 bytes, in limb 4. */
    private static final long BLOCK_BIT = 1L << 24;

    private long r0, r1, r2, r3, r4;
    /** r1..r4 times 5: 2^130 = 5 modulo p, so products that overflow limb 4 wrap around multiplied by 5. */
    private long s1, s2, s3, s4;
    private long h0, h1, h2, h3, h4;
    private long pad0, pad1, pad2, pad3;
    private final byte[] last = new byte[BLOCK_LENGTH];
    private final ByteBuffer lastBlock = ByteBuffer.wrap(last).order(ByteOrder.LITTLE_ENDIAN);

    /** Starts a message with the first 32 bytes of {@code oneTimeKey}: r (clamped), then the final pad s. */
    void start(byte[] oneTimeKey) {
        ByteBuffer key = ByteBuffer.wrap(oneTimeKey, 0, KEY_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        long lo = key.getLong(0);
        long hi = key.getLong(8);
        r0 = lo & 0x3ffffff;
        r1 = (lo >>> 26) & 0x3ffff03;
        r2 = ((lo >>> 52) | (hi << 12)) & 0x3ffc0ff;
        r3 = (hi >>> 14) & 0x3f03fff;
        r4 = (hi >>> 40) & 0x00fffff;
        s1 = r1 * 5;
        s2 = r2 * 5;
        s3 = r3 * 5;
        s4 = r4 * 5;
        h0 = h1 = h2 = h3 = h4 = 0;
        pad0 = key.getInt(16) & 0xffffffffL;
        pad1 = key.getInt(20) & 0xffffffffL;
        pad2 = key.getInt(24) & 0xffffffffL;
        pad3 = key.getInt(28) & 0xffffffffL;
    }

    /** Absorbs {@code length} bytes of {@code data} from absolute index {@code from}, zero-padded to a whole block. */
    void absorbPadded(ByteBuffer data, int from, int length) {
        if (length == 0) {
            return; // the transport's empty associated data, every record
        }
        ByteBuffer littleEndian = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int whole = length & -BLOCK_LENGTH;
        absorbBlocks(littleEndian, from, whole);
        int rest = length - whole;
        if (rest > 0) {
            Arrays.fill(last, (byte) 0);
            littleEndian.get(from + whole, last, 0, rest);
            absorbBlocks(lastBlock, 0, BLOCK_LENGTH);
        }
    }

    /** Absorbs {@code bytes} zero-padded to a whole block. */
    void absorbPadded(byte[] bytes) {
        absorbPadded(ByteBuffer.wrap(bytes), 0, bytes.length);
    }

    /** Absorbs the AEAD's last block: the two lengths, little-endian. */
    void absorbLengths(long associatedDataLength, long ciphertextLength) {
        lastBlock.putLong(0, associatedDataLength).putLong(8, ciphertextLength);
        absorbBlocks(lastBlock, 0, BLOCK_LENGTH);
    }

    /** Writes the 16-byte tag into {@code tag}. */
    void finish(byte[] tag) {
        long c = h1 >>> 26;
        long a0 = h0;
        long a1 = h1 & LIMB;
        long a2 = h2 + c;
        c = a2 >>> 26;
        a2 &= LIMB;
        long a3 = h3 + c;
        c = a3 >>> 26;
        a3 &= LIMB;
        long a4 = h4 + c;
        c = a4 >>> 26;
        a4 &= LIMB;
        a0 += c * 5;
        c = a0 >>> 26;
        a0 &= LIMB;
        a1 += c;

        // g = h + 5 - 2^130; when that is not negative, h >= p and g is h reduced
        long g0 = a0 + 5;
        c = g0 >>> 26;
        g0 &= LIMB;
        long g1 = a1 + c;
        c = g1 >>> 26;
        g1 &= LIMB;
        long g2 = a2 + c;
        c = g2 >>> 26;
        g2 &= LIMB;
        long g3 = a3 + c;
        c = g3 >>> 26;
        g3 &= LIMB;
        long g4 = a4 + c - (1L << 26);
        long keepH = g4 >> 63;
        a0 = (a0 & keepH) | (g0 & ~keepH);
        a1 = (a1 & keepH) | (g1 & ~keepH);
        a2 = (a2 & keepH) | (g2 & ~keepH);
        a3 = (a3 & keepH) | (g3 & ~keepH);
        a4 = (a4 & keepH) | (g4 & ~keepH);

        // h mod 2^128 as four 32-bit words, plus s
        long f = ((a0 | (a1 << 26)) & 0xffffffffL) + pad0;
        ByteBuffer out = ByteBuffer.wrap(tag).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0, (int) f);
        f = (((a1 >>> 6) | (a2 << 20)) & 0xffffffffL) + pad1 + (f >>> 32);
        out.putInt(4, (int) f);
        f = (((a2 >>> 12) | (a3 << 14)) & 0xffffffffL) + pad2 + (f >>> 32);
        out.putInt(8, (int) f);
        f = (((a3 >>> 18) | (a4 << 8)) & 0xffffffffL) + pad3 + (f >>> 32);
        out.putInt(12, (int) f);
    }

    /** h = (h + block + 2^128) * r mod 2^130 - 5, for each whole block; {@code data} is little-endian. */
    private void absorbBlocks(ByteBuffer data, int from, int length) {
        long a0 = h0, a1 = h1, a2 = h2, a3 = h3, a4 = h4;
        final long k0 = r0, k1 = r1, k2 = r2, k3 = r3, k4 = r4;
        final long t1 = s1, t2 = s2, t3 = s3, t4 = s4;
        for (int at = from, end = from + length; at < end; at += BLOCK_LENGTH) {
            long lo = data.getLong(at);
            long hi = data.getLong(at + 8);
            a0 += lo & LIMB;
            a1 += (lo >>> 26) & LIMB;
            a2 += ((lo >>> 52) | (hi << 12)) & LIMB;
            a3 += (hi >>> 14) & LIMB;
            a4 += (hi >>> 40) | BLOCK_BIT;

            long d0 = a0 * k0 + a1 * t4 + a2 * t3 + a3 * t2 + a4 * t1;
            long d1 = a0 * k1 + a1 * k0 + a2 * t4 + a3 * t3 + a4 * t2;
            long d2 = a0 * k2 + a1 * k1 + a2 * k0 + a3 * t4 + a4 * t3;
            long d3 = a0 * k3 + a1 * k2 + a2 * k1 + a3 * k0 + a4 * t4;
            long d4 = a0 * k4 + a1 * k3 + a2 * k2 + a3 * k1 + a4 * k0;

            long c = d0 >>> 26;
            a0 = d0 & LIMB;
            d1 += c;
            c = d1 >>> 26;
            a1 = d1 & LIMB;
            d2 += c;
            c = d2 >>> 26;
            a2 = d2 & LIMB;
            d3 += c;
            c = d3 >>> 26;
            a3 = d3 & LIMB;
            d4 += c;
            c = d4 >>> 26;
            a4 = d4 & LIMB;
            a0 += c * 5;
            c = a0 >>> 26;
            a0 &= LIMB;
            a1 += c;
        }
        h0 = a0;
        h1 = a1;
        h2 = a2;
        h3 = a3;
        h4 = a4;
    }
}
