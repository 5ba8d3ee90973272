package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * A key the authority trusts: an ed25519 public key (its key id is the key itself), its votes and metadata. Its text
 * form is {@code tlpub:<hex>}, as {@code tailscale lock} prints it.
 *
 * @param publicHex the 32-byte public key, lower-case hex
 */
public record SigningKey(String publicHex, long votes, Map<String, String> meta) {

    /** CBOR keys of the clients' Key (keyasint). */
    private static final String KIND = "1";
    private static final String VOTES = "2";
    private static final String PUBLIC = "3";
    private static final String META = "12";
    /** The only kind of key there is: ed25519. */
    private static final int KIND_25519 = 1;

    public SigningKey {
        meta = Map.copyOf(meta);
    }

    public byte[] publicKey() {
        return HexFormat.of().parseHex(publicHex);
    }

    /** {@code tlpub:<hex>}. */
    public String text() {
        return "tlpub:" + publicHex;
    }

    public static SigningKey of(byte[] publicKey, long votes) {
        return new SigningKey(HexFormat.of().formatHex(publicKey), votes, Map.of());
    }

    /** A key from its decoded CBOR map, checked as the clients check it (ed25519, 1 to 4096 votes). */
    static SigningKey read(JsonNode map) {
        if (map == null || !map.isObject()) {
            throw MeshException.invalid("a key is not a CBOR map");
        }
        JsonNode kind = map.get(KIND);
        if (kind == null || !kind.isIntegralNumber() || kind.asLong() != KIND_25519) {
            throw MeshException.invalid("only ed25519 keys can be trusted");
        }
        JsonNode votes = map.get(VOTES);
        long v = votes == null || !votes.isIntegralNumber() ? 0 : votes.asLong();
        if (v < 1 || v > 4096) {
            throw MeshException.invalid("a key's votes must be 1 to 4096 (got " + v + ")");
        }
        JsonNode pub = map.get(PUBLIC);
        if (pub == null || !pub.isBinary() || pub.binaryValue().length != 32) {
            throw MeshException.invalid("an ed25519 key has 32 bytes");
        }
        Map<String, String> meta = new TreeMap<>();
        JsonNode m = map.get(META);
        if (m != null && m.isObject()) {
            m.properties().forEach(e -> meta.put(e.getKey(), e.getValue().asString()));
        }
        return new SigningKey(HexFormat.of().formatHex(pub.binaryValue()), v, meta);
    }
}
