package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.NodePublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A signature that authorises a node key under the tailnet lock, as a client encoded it (keyasint: 1 kind, 2 the node
 * key with its "np" prefix, 3 the signing key's id, 4 the ed25519 signature, 5 a nested signature, 6 a wrapping
 * key). Kinds: direct (a trusted key signs the node key), rotation (the node's wrapping key signs its new node key,
 * nesting the signature of the old one), credential (a trusted key signs a wrapping key, nested in a rotation).
 * The server stores it and hands it to peers as it came; it checks it as the clients will, so that a bad signature is
 * refused when submitted rather than dropped by every peer.
 */
public final class NodeKeySignature {

    public enum Kind { INVALID, DIRECT, ROTATION, CREDENTIAL }

    private static final int KIND = 1;
    private static final int PUBKEY = 2;
    private static final int KEY_ID = 3;
    private static final int SIGNATURE = 4;
    private static final int NESTED = 5;
    private static final int WRAPPING = 6;
    /** The binary form of a node key starts with these two bytes. */
    private static final byte[] NODE_KEY_PREFIX = {'n', 'p'};
    /** As deep as a client nests rotations, and a little more. */
    private static final int MAX_DEPTH = 16;

    private final CborMap map;
    private final Kind kind;
    private final NodeKeySignature nested;

    private NodeKeySignature(CborMap map, int depth) {
        if (depth > MAX_DEPTH) {
            throw MeshException.invalid("the node-key signature nests too deep");
        }
        this.map = map;
        long k = map.unsigned(KIND, "the signature's kind");
        this.kind = k > 0 && k < Kind.values().length ? Kind.values()[(int) k] : Kind.INVALID;
        CborMap inner = map.map(NESTED, "the nested signature");
        this.nested = inner == null ? null : new NodeKeySignature(inner, depth + 1);
    }

    public static NodeKeySignature decode(byte[] encoded) {
        return new NodeKeySignature(CborMap.parse(encoded, "the node-key signature"), 0);
    }

    /** From the base64 text clients and maps carry. */
    public static NodeKeySignature decodeBase64(String text) {
        try {
            return decode(Base64.getDecoder().decode(text));
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("the node-key signature is not base64");
        }
    }

    public byte[] encoded() {
        return map.bytes();
    }

    public String base64() {
        return Base64.getEncoder().encodeToString(map.bytes());
    }

    public Kind kind() {
        return kind;
    }

    /** The node key this signature authorises, or null for a credential (which names none). */
    public NodePublicKey nodeKey() {
        byte[] pub = map.binary(PUBKEY, "the signed node key");
        if (pub == null) {
            return null;
        }
        if (pub.length != 34 || pub[0] != NODE_KEY_PREFIX[0] || pub[1] != NODE_KEY_PREFIX[1]) {
            throw MeshException.invalid("the signed node key is not a binary node key");
        }
        return NodePublicKey.fromRaw(Arrays.copyOfRange(pub, 2, 34));
    }

    /** The id (hex) of the trusted key behind this signature, through any rotations. */
    public String authorizingKeyIdHex() {
        return switch (kind) {
            case DIRECT, CREDENTIAL -> {
                byte[] id = map.binary(KEY_ID, "the signature's key id");
                if (id == null) {
                    throw MeshException.invalid("the signature names no key id");
                }
                yield HexFormat.of().formatHex(id);
            }
            case ROTATION -> {
                if (nested == null) {
                    throw MeshException.invalid("a rotation signature nests no signature");
                }
                yield nested.authorizingKeyIdHex();
            }
            case INVALID -> throw MeshException.invalid("the signature is of an unknown kind");
        };
    }

    /** The key allowed to sign this node's next key (rotation), or null. */
    private byte[] wrappingPublic() {
        byte[] wrapping = map.binary(WRAPPING, "the wrapping key");
        if (wrapping != null && wrapping.length > 0) {
            return wrapping;
        }
        return kind == Kind.ROTATION && nested != null ? nested.wrappingPublic() : null;
    }

    /**
     * Checks that this signature authorises {@code nodeKey} under {@code state}, by the clients' rules.
     *
     * @throws MeshException (invalid) saying why not
     */
    public void verify(NodePublicKey nodeKey, AuthorityState state) {
        if (kind != Kind.CREDENTIAL) {
            byte[] pub = map.binary(PUBKEY, "the signed node key");
            byte[] expected = new byte[34];
            expected[0] = NODE_KEY_PREFIX[0];
            expected[1] = NODE_KEY_PREFIX[1];
            System.arraycopy(nodeKey.bytes(), 0, expected, 2, 32);
            if (!Arrays.equals(pub, expected)) {
                throw MeshException.invalid("the signature does not authorise " + nodeKey.toText());
            }
        }
        byte[] sigHash = LockCrypto.blake2s256(map.without(SIGNATURE));
        byte[] signature = map.binary(SIGNATURE, "the signature");
        switch (kind) {
            case ROTATION -> {
                if (nested == null) {
                    throw MeshException.invalid("a rotation signature nests no signature");
                }
                byte[] rotationKey = nested.wrappingPublic();
                if (rotationKey == null || !LockCrypto.ed25519Verify(rotationKey, sigHash, signature)) {
                    throw MeshException.invalid("the rotation signature does not verify");
                }
                if (nested.kind == Kind.CREDENTIAL) {
                    nested.verify(nodeKey, state);
                } else {
                    nested.verify(nested.nodeKey(), state);
                }
            }
            case DIRECT, CREDENTIAL -> {
                if (nested != null) {
                    throw MeshException.invalid("a " + kind.name().toLowerCase() + " signature cannot nest another");
                }
                String keyId = authorizingKeyIdHex();
                SigningKey key = state.key(keyId).orElseThrow(() -> MeshException.invalid(
                        "the signature is made by tlpub:" + keyId + ", which is not a trusted key"));
                if (!LockCrypto.ed25519Verify(key.publicKey(), sigHash, signature)) {
                    throw MeshException.invalid("the signature does not verify");
                }
            }
            case INVALID -> throw MeshException.invalid("the signature is of an unknown kind");
        }
    }

    /** Whether it authorises {@code nodeKey} under {@code state}. */
    public boolean authorizes(NodePublicKey nodeKey, AuthorityState state) {
        try {
            verify(nodeKey, state);
            return true;
        } catch (MeshException e) {
            return false;
        }
    }
}
