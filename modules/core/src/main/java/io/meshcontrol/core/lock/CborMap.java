package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * One CBOR map with small integer keys, as the tailnet lock encodes its structures ({@code keyasint}, CTAP2 canonical
 * form: definite lengths, keys in ascending order, shortest integers), read with Jackson's CBOR parser.
 *
 * <p>Besides the decoded values it keeps where each entry lies in the encoded bytes. A signature covers the encoding of
 * its structure without the signature field; since the signer's encoding is canonical, that is these bytes with the
 * one entry cut out and the entry count lowered by one ({@link #without}). Cutting, rather than encoding again, keeps
 * every other byte exactly as signed (Jackson would write a 64-bit unsigned state id above 2^63 as a tagged bignum).
 */
final class CborMap {

    private static final CBORMapper MAPPER = CBORMapper.builder().build();
    /** Keys and counts below this are a single byte in CBOR (major type plus the value in the low 5 bits). */
    private static final int SMALL = 24;
    private static final int MAX_BYTES = 64 * 1024;

    private record Entry(int key, int start, int end) {
    }

    private final byte[] bytes;
    private final JsonNode tree;
    private final List<Entry> entries;

    private CborMap(byte[] bytes, JsonNode tree, List<Entry> entries) {
        this.bytes = bytes;
        this.tree = tree;
        this.entries = entries;
    }

    /** @throws MeshException (invalid) for anything but a map of at most 23 small integer keys */
    static CborMap parse(byte[] bytes, String what) {
        if (bytes == null || bytes.length == 0) {
            throw MeshException.invalid(what + " is empty");
        }
        if (bytes.length > MAX_BYTES) {
            throw MeshException.invalid(what + " is larger than " + MAX_BYTES + " bytes");
        }
        int header = bytes[0] & 0xff;
        if ((header >> 5) != 5 || (header & 0x1f) >= SMALL) {
            throw MeshException.invalid(what + " is not a CBOR map of fewer than " + SMALL + " entries");
        }
        try {
            JsonNode tree = MAPPER.readTree(bytes);
            List<Entry> entries = new ArrayList<>();
            try (JsonParser parser = MAPPER.createParser(bytes)) {
                parser.nextToken(); // START_OBJECT
                JsonToken token = parser.nextToken();
                int key = -1;
                int start = 1;
                while (token == JsonToken.PROPERTY_NAME) {
                    int at = (int) parser.currentTokenLocation().getByteOffset();
                    if (key >= 0) {
                        entries.add(new Entry(key, start, at));
                    }
                    key = smallKey(parser.currentName(), what);
                    start = at;
                    parser.nextToken();
                    parser.skipChildren();
                    token = parser.nextToken();
                }
                if (key >= 0) {
                    entries.add(new Entry(key, start, bytes.length));
                }
                if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
                    throw MeshException.invalid(what + " has bytes after its map");
                }
            }
            for (int i = 1; i < entries.size(); i++) {
                if (entries.get(i).key() <= entries.get(i - 1).key()) {
                    throw MeshException.invalid(what + " is not canonical CBOR: its keys are not in ascending order");
                }
            }
            return new CborMap(bytes, tree, List.copyOf(entries));
        } catch (JacksonException e) {
            throw MeshException.invalid(what + " is not valid CBOR: " + e.getOriginalMessage());
        }
    }

    private static int smallKey(String name, String what) {
        try {
            int key = Integer.parseInt(name);
            if (key >= 0 && key < SMALL) {
                return key;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw MeshException.invalid(what + " has a key that is not a small integer: " + name);
    }

    /** The whole encoding, as received. */
    byte[] bytes() {
        return bytes.clone();
    }

    boolean has(int key) {
        JsonNode value = tree.get(String.valueOf(key));
        return value != null && !value.isNull();
    }

    /** The value under {@code key}, or null when absent or CBOR null. */
    JsonNode get(int key) {
        JsonNode value = tree.get(String.valueOf(key));
        return value == null || value.isNull() ? null : value;
    }

    /** The bytes of a byte-string value, or null when absent or null. */
    byte[] binary(int key, String what) {
        JsonNode value = get(key);
        if (value == null) {
            return null;
        }
        if (!value.isBinary()) {
            throw MeshException.invalid(what + " is not a byte string");
        }
        return value.binaryValue();
    }

    /** An unsigned integer value, 0 when absent. */
    long unsigned(int key, String what) {
        JsonNode value = get(key);
        if (value == null) {
            return 0;
        }
        if (!value.isIntegralNumber() || value.bigIntegerValue().signum() < 0) {
            throw MeshException.invalid(what + " is not an unsigned integer");
        }
        return value.bigIntegerValue().longValue();
    }

    /** The nested map under {@code key}, read on its own, or null when absent. */
    CborMap map(int key, String what) {
        for (Entry entry : entries) {
            if (entry.key() == key && has(key)) {
                // Small keys are one byte: the value starts right after it.
                return parse(Arrays.copyOfRange(bytes, entry.start() + 1, entry.end()), what);
            }
        }
        return null;
    }

    /** The encoding of this map without the entry under {@code key} (the bytes a signature covers). */
    byte[] without(int key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        int kept = (int) entries.stream().filter(e -> e.key() != key).count();
        out.write(0xa0 | kept);
        for (Entry entry : entries) {
            if (entry.key() != key) {
                out.write(bytes, entry.start(), entry.end() - entry.start());
            }
        }
        return out.toByteArray();
    }
}
