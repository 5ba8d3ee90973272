package io.meshcontrol.core.wire;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Any JSON value carried as it is, like Go's {@code tailcfg.RawMessage}: the values of a {@code CapMap} entry, which
 * only the client interprets. Held as compact JSON text and written without re-encoding. Immutable.
 */
@JsonSerialize(using = RawJson.Writer.class)
@JsonDeserialize(using = RawJson.Reader.class)
public final class RawJson {

    private final String json;

    private RawJson(String json) {
        this.json = json;
    }

    /**
     * Checks and compacts JSON text.
     *
     * @throws IllegalArgumentException when it is not one JSON value
     */
    public static RawJson parse(String json) {
        try {
            return of(WireJson.mapper().readTree(json));
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The JSON of a tree. */
    public static RawJson of(JsonNode value) {
        return new RawJson(WireJson.mapper().writeValueAsString(value));
    }

    /** The JSON encoding of any value the wire mapper can write (a string, a number, a record ...). */
    public static RawJson encode(Object value) {
        return new RawJson(WireJson.mapper().writeValueAsString(value));
    }

    /** The value as a fresh tree. */
    public JsonNode toTree() {
        return WireJson.mapper().readTree(json);
    }

    /** The compact JSON text. */
    public String json() {
        return json;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RawJson that && json.equals(that.json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return json;
    }

    static final class Writer extends StdSerializer<RawJson> {
        Writer() {
            super(RawJson.class);
        }

        @Override
        public void serialize(RawJson value, JsonGenerator gen, SerializationContext ctxt) {
            if (WireJson.writesText(gen)) {
                gen.writeRawValue(value.json);
            } else {
                gen.writeTree(value.toTree()); // a tree is being built (valueToTree): raw text would stay opaque there
            }
        }
    }

    static final class Reader extends StdDeserializer<RawJson> {
        Reader() {
            super(RawJson.class);
        }

        @Override
        public RawJson deserialize(JsonParser p, DeserializationContext ctxt) {
            return of(ctxt.readTree(p));
        }

        /** A JSON {@code null} element is kept as the JSON value {@code null}, as Go keeps the text "null". */
        @Override
        public RawJson getNullValue(DeserializationContext ctxt) {
            return new RawJson("null");
        }
    }
}
