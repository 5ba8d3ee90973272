package io.meshcontrol.core.wire;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.util.TokenBuffer;

/**
 * A list of nodes whose JSON is encoded already, for {@code MapResponse.Peers} and {@code PeersChanged}: a peer looks
 * the same to every map session that sees it, so it is encoded once per change and every session's message copies
 * the bytes instead of encoding the node again. Reads like any {@code List<Node>}; immutable.
 */
@JsonSerialize(using = EncodedNodes.Writer.class)
public final class EncodedNodes extends AbstractList<Node> implements RandomAccess {

    /**
     * One node with its compact JSON, as {@link WireJson} writes it; the UTF-8 bytes are made once, so writing the
     * node into a message is a copy.
     */
    public record Encoded(Node node, SerializedString raw) {

        public static Encoded of(Node node) {
            SerializedString raw = new SerializedString(WireJson.writeString(node));
            raw.asUnquotedUTF8(); // encoded now, once, rather than by the first message to carry it
            return new Encoded(node, raw);
        }

        public String json() {
            return raw.getValue();
        }

        /** Equal when the JSON is: the same peer state (the string's hash is computed once and kept). */
        @Override
        public boolean equals(Object other) {
            return other instanceof Encoded that && (this == that || raw.equals(that.raw));
        }

        @Override
        public int hashCode() {
            return raw.hashCode();
        }
    }

    private final List<Encoded> items;

    private EncodedNodes(List<Encoded> items) {
        this.items = items;
    }

    public static EncodedNodes of(List<Encoded> items) {
        return new EncodedNodes(List.copyOf(items));
    }

    public List<Encoded> encoded() {
        return items;
    }

    @Override
    public Node get(int index) {
        return items.get(index).node();
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public boolean equals(Object other) {
        if (other instanceof EncodedNodes that) {
            return items.equals(that.items);
        }
        return super.equals(other);
    }

    /** From the JSON, not the nodes: cheap, since each JSON string keeps its hash. */
    @Override
    public int hashCode() {
        return items.hashCode();
    }

    static final class Writer extends StdSerializer<EncodedNodes> {
        Writer() {
            super(EncodedNodes.class);
        }

        @Override
        public void serialize(EncodedNodes value, JsonGenerator gen, SerializationContext ctxt) {
            gen.writeStartArray(value, value.size());
            for (Encoded item : value.items) {
                if (gen instanceof TokenBuffer) {
                    ctxt.writeValue(gen, item.node()); // a tree is being built: raw text would stay opaque there
                } else {
                    gen.writeRawValue(item.raw());
                }
            }
            gen.writeEndArray();
        }
    }
}
