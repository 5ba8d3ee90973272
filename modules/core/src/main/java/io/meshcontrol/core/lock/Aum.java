package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * An authority update message, as a client encoded and signed it. The encoding is kept as received: the AUM's hash is
 * the BLAKE2s-256 digest of exactly these bytes, and its signatures cover them without the signatures
 * ({@link #sigHash}). Keys of the encoding (keyasint): 1 kind, 2 parent hash (null for the first), 3 key (add), 4 key
 * id (remove, update), 5 state (checkpoint), 6 votes and 7 metadata (update), 23 signatures.
 */
public final class Aum {

    public enum Kind { INVALID, ADD_KEY, REMOVE_KEY, NO_OP, UPDATE_KEY, CHECKPOINT }

    /** One signature: the signing key's id (its public key) and the ed25519 signature over {@link #sigHash}. */
    public record Signature(String keyIdHex, byte[] signature) {
    }

    private static final int KIND = 1;
    private static final int PARENT = 2;
    private static final int KEY = 3;
    private static final int KEY_ID = 4;
    private static final int STATE = 5;
    private static final int VOTES = 6;
    private static final int META = 7;
    private static final int SIGNATURES = 23;

    private final CborMap map;
    private final AumHash hash;
    private final Kind kind;
    private final AumHash parent;
    private final List<Signature> signatures;

    private Aum(CborMap map) {
        this.map = map;
        this.hash = AumHash.of(map.bytes());
        long k = map.unsigned(KIND, "the AUM's kind");
        this.kind = k > 0 && k < Kind.values().length ? Kind.values()[(int) k] : Kind.INVALID;
        byte[] prev = map.binary(PARENT, "the AUM's parent hash");
        this.parent = prev == null ? null : new AumHash(prev);
        List<Signature> sigs = new ArrayList<>();
        JsonNode list = map.get(SIGNATURES);
        if (list != null) {
            for (JsonNode sig : list) {
                JsonNode id = sig.get("1");
                JsonNode value = sig.get("2");
                if (id == null || !id.isBinary() || id.binaryValue().length != 32 || value == null
                        || !value.isBinary() || value.binaryValue().length != 64) {
                    throw MeshException.invalid("an AUM signature has a 32-byte key id and a 64-byte signature");
                }
                sigs.add(new Signature(HexFormat.of().formatHex(id.binaryValue()), value.binaryValue()));
            }
        }
        this.signatures = List.copyOf(sigs);
    }

    /** Reads an AUM from its encoding. */
    public static Aum decode(byte[] encoded) {
        return new Aum(CborMap.parse(encoded, "the AUM"));
    }

    public byte[] encoded() {
        return map.bytes();
    }

    public AumHash hash() {
        return hash;
    }

    public Kind kind() {
        return kind;
    }

    /** The previous AUM's hash, or null for the first one (genesis). */
    public AumHash parent() {
        return parent;
    }

    public List<Signature> signatures() {
        return signatures;
    }

    /** The digest the signatures cover: the encoding without its signatures. */
    public byte[] sigHash() {
        return LockCrypto.blake2s256(map.without(SIGNATURES));
    }

    /** The key an add-key AUM adds. */
    public SigningKey key() {
        return SigningKey.read(map.get(KEY));
    }

    /** The key id (hex) a remove-key or update-key AUM names. */
    public String keyIdHex() {
        byte[] id = map.binary(KEY_ID, "the AUM's key id");
        if (id == null) {
            throw MeshException.invalid("a " + kind + " AUM names no key id");
        }
        return HexFormat.of().formatHex(id);
    }

    /** An update-key AUM's new votes, or null when it keeps them. */
    public Long votes() {
        return map.has(VOTES) ? map.unsigned(VOTES, "the AUM's votes") : null;
    }

    /** An update-key AUM's new metadata, or null when it keeps it. */
    public Map<String, String> meta() {
        JsonNode m = map.get(META);
        if (m == null) {
            return null;
        }
        Map<String, String> meta = new TreeMap<>();
        m.properties().forEach(e -> meta.put(e.getKey(), e.getValue().asString()));
        return meta;
    }

    /** The full state a checkpoint AUM states. */
    public AuthorityState checkpointState() {
        JsonNode state = map.get(STATE);
        if (state == null) {
            throw MeshException.invalid("a checkpoint AUM states no state");
        }
        return AuthorityState.read(state);
    }
}
