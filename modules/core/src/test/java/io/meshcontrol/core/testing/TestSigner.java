package io.meshcontrol.core.testing;

import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.lock.AumHash;
import io.meshcontrol.core.lock.LockCrypto;
import io.meshcontrol.core.lock.SigningKey;
import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.util.List;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import tools.jackson.core.JsonGenerator;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * A signing machine for tests: an ed25519 key that makes AUMs and node-key signatures encoded as clients encode them
 * (canonical CBOR maps with small integer keys, written with Jackson's CBOR generator). Only tests sign.
 */
public final class TestSigner {

    private static final CBORMapper CBOR = CBORMapper.builder().build();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] secret = new byte[32];
    private final byte[] publicKey = new byte[32];

    public TestSigner() {
        RANDOM.nextBytes(secret);
        Ed25519.generatePublicKey(secret, 0, publicKey, 0);
    }

    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** {@code tlpub:<hex>}, as the clients print it. */
    public String text() {
        return SigningKey.of(publicKey, 1).text();
    }

    /** A genesis checkpoint trusting {@code trusted} (one vote each), with one disablement value, signed by this key. */
    public byte[] genesis(List<TestSigner> trusted, byte[] disablementValue) {
        return signed(g -> {
            g.writePropertyId(1);
            g.writeNumber(5); // checkpoint
            g.writePropertyId(2);
            g.writeNull();
            g.writePropertyId(5);
            g.writeStartObject(null, 5);
            g.writePropertyId(1);
            g.writeNull();
            g.writePropertyId(2);
            g.writeStartArray(null, 1);
            g.writeBinary(disablementValue);
            g.writeEndArray();
            g.writePropertyId(3);
            g.writeStartArray(null, trusted.size());
            for (TestSigner key : trusted) {
                writeKey(g, key.publicKey);
            }
            g.writeEndArray();
            g.writePropertyId(4);
            g.writeNumber(7L);
            g.writePropertyId(5);
            g.writeNumber(11L);
            g.writeEndObject();
        }, 3);
    }

    /** An add-key AUM after {@code parent}, signed by this key. */
    public byte[] addKey(AumHash parent, TestSigner added) {
        return signed(g -> {
            g.writePropertyId(1);
            g.writeNumber(1);
            g.writePropertyId(2);
            g.writeBinary(parent.bytes());
            g.writePropertyId(3);
            writeKey(g, added.publicKey);
        }, 3);
    }

    /** A remove-key AUM after {@code parent}, signed by this key. */
    public byte[] removeKey(AumHash parent, TestSigner removed) {
        return signed(g -> {
            g.writePropertyId(1);
            g.writeNumber(2);
            g.writePropertyId(2);
            g.writeBinary(parent.bytes());
            g.writePropertyId(4);
            g.writeBinary(removed.publicKey);
        }, 3);
    }

    /** A direct node-key signature of {@code nodeKey} by this key. */
    public byte[] sign(NodePublicKey nodeKey) {
        return map(direct(nodeKey, null), 4, null);
    }

    /**
     * A rotation signature: {@code wrapping} (the node's own rotation key) signs {@code newKey}, nesting this key's
     * direct signature of {@code oldKey} that names {@code wrapping} as the node's rotation key.
     */
    public byte[] rotate(NodePublicKey oldKey, NodePublicKey newKey, TestSigner wrapping) {
        Body nested = direct(oldKey, wrapping.publicKey);
        Body unsigned = g -> {
            g.writePropertyId(1);
            g.writeNumber(2);
            g.writePropertyId(2);
            g.writeBinary(binary(newKey));
        };
        Body nestedEntry = g -> {
            g.writePropertyId(5);
            g.writeStartObject(null, 5);
            nested.write(g);
            g.writeEndObject();
        };
        byte[] signature = wrapping.ed25519(LockCrypto.blake2s256(map(g -> {
            unsigned.write(g);
            nestedEntry.write(g);
        }, 3, null)));
        return map(g -> {
            unsigned.write(g);
            g.writePropertyId(4);
            g.writeBinary(signature);
            nestedEntry.write(g);
        }, 4, null);
    }

    /** The entries of a direct signature of {@code nodeKey} by this key (with a rotation key when not null). */
    private Body direct(NodePublicKey nodeKey, byte[] rotationKey) {
        Body body = g -> {
            g.writePropertyId(1);
            g.writeNumber(1);
            g.writePropertyId(2);
            g.writeBinary(binary(nodeKey));
            g.writePropertyId(3);
            g.writeBinary(publicKey);
        };
        Body rotation = g -> {
            if (rotationKey != null) {
                g.writePropertyId(6);
                g.writeBinary(rotationKey);
            }
        };
        int entries = rotationKey == null ? 3 : 4;
        byte[] signature = ed25519(LockCrypto.blake2s256(map(g -> {
            body.write(g);
            rotation.write(g);
        }, entries, null)));
        return g -> {
            body.write(g);
            g.writePropertyId(4);
            g.writeBinary(signature);
            rotation.write(g);
        };
    }

    private static byte[] binary(NodePublicKey nodeKey) {
        byte[] np = new byte[34];
        np[0] = 'n';
        np[1] = 'p';
        System.arraycopy(nodeKey.bytes(), 0, np, 2, 32);
        return np;
    }

    private interface Body {
        void write(JsonGenerator g);
    }

    private static void writeKey(JsonGenerator g, byte[] pub) {
        g.writeStartObject(null, 3);
        g.writePropertyId(1);
        g.writeNumber(1);
        g.writePropertyId(2);
        g.writeNumber(1);
        g.writePropertyId(3);
        g.writeBinary(pub);
        g.writeEndObject();
    }

    /** The AUM with {@code entries} entries, then its signatures (key 23) by this key over the rest. */
    private byte[] signed(Body body, int entries) {
        byte[] unsigned = map(body, entries, null);
        byte[] signature = ed25519(LockCrypto.blake2s256(unsigned));
        return map(body, entries, g -> {
            g.writePropertyId(23);
            g.writeStartArray(null, 1);
            g.writeStartObject(null, 2);
            g.writePropertyId(1);
            g.writeBinary(publicKey);
            g.writePropertyId(2);
            g.writeBinary(signature);
            g.writeEndObject();
            g.writeEndArray();
        });
    }

    private static byte[] map(Body body, int entries, Body last) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = CBOR.createGenerator(out)) {
            g.writeStartObject(null, last == null ? entries : entries + 1);
            body.write(g);
            if (last != null) {
                last.write(g);
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    private byte[] ed25519(byte[] message) {
        byte[] signature = new byte[64];
        Ed25519.sign(secret, 0, message, 0, message.length, signature, 0);
        return signature;
    }
}
