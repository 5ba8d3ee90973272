package io.meshcontrol.core.wire;

import java.util.function.Supplier;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * A client's description of itself ({@code Hostinfo} in register and map requests), which the server stores and passes
 * to peers in {@code Node.Hostinfo}. Go: {@code tailcfg.Hostinfo}.
 *
 * <p>It is kept as the JSON object the client sent, so fields this server does not know (a newer client's) reach peers
 * unchanged; the known ones are read through {@link #fields()}. The JSON is written back as it came (compacted), never
 * re-encoded from the typed fields. Immutable; equal when the JSON objects are equal.
 */
@JsonSerialize(using = Hostinfo.Writer.class)
@JsonDeserialize(using = Hostinfo.Reader.class)
public final class Hostinfo {

    private final ObjectNode tree;
    private final String json;
    private final HostinfoFields fields;

    private Hostinfo(ObjectNode tree) {
        this.tree = tree;
        this.json = WireJson.mapper().writeValueAsString(tree);
        this.fields = WireJson.mapper().treeToValue(tree, HostinfoFields.class);
    }

    /**
     * A Hostinfo from the JSON object a client sent.
     *
     * @throws IllegalArgumentException when the JSON is not an object
     * @throws tools.jackson.core.JacksonException when it is not JSON or a known field has a bad value (a bad route)
     */
    public static Hostinfo parse(String json) {
        return of(WireJson.mapper().readTree(json));
    }

    /**
     * A Hostinfo from a JSON object (copied).
     *
     * @throws IllegalArgumentException when the tree is not an object
     */
    public static Hostinfo of(JsonNode tree) {
        if (!(tree instanceof ObjectNode object)) {
            throw new IllegalArgumentException("a Hostinfo is a JSON object, got " + tree.getNodeType());
        }
        return new Hostinfo(object.deepCopy());
    }

    /** A Hostinfo made by the server (tests, synthetic nodes) from typed fields. */
    public static Hostinfo of(HostinfoFields fields) {
        return new Hostinfo(WireJson.mapper().valueToTree(fields));
    }

    /** The fields this server knows, typed. */
    public HostinfoFields fields() {
        return fields;
    }

    /** The client's home DERP region ({@code NetInfo.PreferredDERP}); 0 when it reported none. */
    public int homeRegion() {
        return fields.netInfo() == null ? 0 : fields.netInfo().preferredDerp();
    }

    /** The home region in a stored Hostinfo (JSON as the client sent it; blank or null has none). */
    public static int homeRegion(String json) {
        return json == null || json.isBlank() ? 0 : parse(json).homeRegion();
    }

    /** The compact JSON object, as written to the wire. */
    public String toJson() {
        return json;
    }

    /** A copy of the JSON object. */
    public ObjectNode toTree() {
        return tree.deepCopy();
    }

    /**
     * This Hostinfo with one field set to a value ({@code null} writes JSON {@code null}), e.g. the {@code Location}
     * control adds.
     */
    public Hostinfo with(String field, Object value) {
        ObjectNode copy = tree.deepCopy();
        copy.set(field, WireJson.mapper().valueToTree(value));
        return new Hostinfo(copy);
    }

    /** This Hostinfo without a field. */
    public Hostinfo without(String field) {
        if (!tree.has(field)) {
            return this;
        }
        ObjectNode copy = tree.deepCopy();
        copy.remove(field);
        return new Hostinfo(copy);
    }

    /**
     * This Hostinfo, with the previous {@code NetInfo} when this one has none: clients leave it out of updates that do
     * not change it, and the server keeps the last one (as headscale does). The previous one is asked for only then:
     * the server keeps it as text, and most map requests carry their own.
     */
    public Hostinfo withNetInfoFrom(Supplier<Hostinfo> previous) {
        if (tree.has("NetInfo")) {
            return this;
        }
        Hostinfo before = previous.get();
        JsonNode netInfo = before == null ? null : before.tree.get("NetInfo");
        if (netInfo == null || netInfo.isNull()) {
            return this;
        }
        ObjectNode copy = tree.deepCopy();
        copy.set("NetInfo", netInfo.deepCopy());
        return new Hostinfo(copy);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Hostinfo that && tree.equals(that.tree);
    }

    @Override
    public int hashCode() {
        return tree.hashCode();
    }

    @Override
    public String toString() {
        return json;
    }

    static final class Writer extends StdSerializer<Hostinfo> {
        Writer() {
            super(Hostinfo.class);
        }

        @Override
        public void serialize(Hostinfo value, JsonGenerator gen, SerializationContext ctxt) {
            if (WireJson.writesText(gen)) {
                gen.writeRawValue(value.json);
            } else {
                gen.writeTree(value.tree); // a tree is being built (valueToTree): raw text would stay opaque there
            }
        }
    }

    static final class Reader extends StdDeserializer<Hostinfo> {
        Reader() {
            super(Hostinfo.class);
        }

        @Override
        public Hostinfo deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonNode tree = ctxt.readTree(p);
            if (!(tree instanceof ObjectNode object)) {
                return (Hostinfo) ctxt.handleUnexpectedToken(Hostinfo.class, p);
            }
            return new Hostinfo(object);
        }
    }
}
