package io.meshcontrol.core.netmap.encoding;

import io.meshcontrol.core.wire.Node;
import io.meshcontrol.core.wire.PreEncodedList;
import io.meshcontrol.core.wire.WireJson;
import java.util.AbstractList;
import java.util.ArrayList;
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
 *
 * <p>Runs of peers can also come as a {@link Block}, whose compressed form is kept: {@link MapFrames} then sends the
 * block's bytes as they are instead of compressing its peers again for every map that carries them.
 */
@JsonSerialize(using = EncodedNodes.Writer.class)
public final class EncodedNodes extends AbstractList<Node> implements RandomAccess, PreEncodedList<Node> {

    /** What the list is written from: single peers and blocks of them, in order. */
    public sealed interface Part permits Encoded, Block {
    }

    /**
     * One node with its compact JSON, as {@link WireJson} writes it; the UTF-8 bytes are made once, so writing the
     * node into a message is a copy.
     */
    public record Encoded(Node node, SerializedString raw) implements Part {

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

    /**
     * Consecutive peers (in the order of the list) whose JSON, joined by commas, is also kept zstd-compressed once it
     * has been: a frame of their own within the message's body, which decodes to the same JSON since a zstd body may
     * be several frames one after the other. A block that follows another element of the list carries the comma
     * before it in its frame, so that a run of blocks is a run of kept frames with nothing compressed between them.
     * Shared by every map that carries the same peers; thread-safe.
     */
    public static final class Block implements Part {
        private final List<Encoded> members;
        private volatile Compressed compressed;

        /** The frames at one zstd level: as the list's first element, and after a comma; either may be null. */
        private record Compressed(int level, byte[] first, byte[] following) {
        }

        public Block(List<Encoded> members) {
            if (members.isEmpty()) {
                throw new IllegalArgumentException("a block has at least one peer");
            }
            this.members = List.copyOf(members);
        }

        public List<Encoded> members() {
            return members;
        }

        /** Whether this block holds exactly these encodings (the same objects, in order). */
        public boolean holds(List<Encoded> encodings) {
            if (encodings.size() != members.size()) {
                return false;
            }
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i) != encodings.get(i)) {
                    return false;
                }
            }
            return true;
        }

        /** The members' JSON joined by commas, UTF-8, after a comma of its own when {@code following}. */
        public byte[] json(boolean following) {
            int length = members.size() - (following ? 0 : 1);
            for (Encoded member : members) {
                length += member.raw().asUnquotedUTF8().length;
            }
            byte[] json = new byte[length];
            int at = 0;
            for (Encoded member : members) {
                if (at > 0 || following) {
                    json[at++] = ',';
                }
                byte[] raw = member.raw().asUnquotedUTF8();
                System.arraycopy(raw, 0, json, at, raw.length);
                at += raw.length;
            }
            return json;
        }

        /** The kept compressed frame of {@link #json(boolean)} at this zstd level, or null. */
        public byte[] frame(int level, boolean following) {
            Compressed kept = compressed;
            return kept == null || kept.level() != level ? null : following ? kept.following() : kept.first();
        }

        /**
         * Keeps the compressed frame of {@link #json(boolean)} (at this zstd level) for the next map that carries this
         * block. Two threads keeping both forms at once may lose one: it is compressed again when next needed.
         */
        public void keep(int level, boolean following, byte[] frame) {
            Compressed kept = compressed;
            Compressed base = kept != null && kept.level() == level ? kept : new Compressed(level, null, null);
            compressed = following ? new Compressed(level, base.first(), frame)
                    : new Compressed(level, frame, base.following());
        }
    }

    private final List<Encoded> items;
    private final List<Part> parts;

    private EncodedNodes(List<Encoded> items, List<Part> parts) {
        this.items = items;
        this.parts = parts;
    }

    public static EncodedNodes of(List<Encoded> items) {
        List<Encoded> copy = List.copyOf(items);
        return new EncodedNodes(copy, List.copyOf(copy));
    }

    /** The list of single peers and blocks, in this order. */
    public static EncodedNodes ofParts(List<? extends Part> parts) {
        List<Encoded> items = new ArrayList<>();
        for (Part part : parts) {
            switch (part) {
                case Encoded single -> items.add(single);
                case Block block -> items.addAll(block.members());
            }
        }
        return new EncodedNodes(List.copyOf(items), List.copyOf(parts));
    }

    public List<Encoded> encoded() {
        return items;
    }

    /** The single peers and blocks the list is written from. */
    public List<Part> parts() {
        return parts;
    }

    /** Whether some peers come as a {@link Block}. */
    public boolean hasBlocks() {
        return parts.stream().anyMatch(Block.class::isInstance);
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
            if (gen instanceof TokenBuffer) {
                for (Encoded item : value.items) {
                    ctxt.writeValue(gen, item.node()); // a tree is being built: raw text would stay opaque there
                }
            } else {
                BlockSlots slots = (BlockSlots) ctxt.getAttribute(BlockSlots.class);
                for (Part part : value.parts) {
                    switch (part) {
                        case Encoded item -> gen.writeRawValue(item.raw());
                        case Block block when slots != null -> gen.writeRawValue(slots.placeholder(block));
                        case Block block -> block.members().forEach(item -> gen.writeRawValue(item.raw()));
                    }
                }
            }
            gen.writeEndArray();
        }
    }
}
