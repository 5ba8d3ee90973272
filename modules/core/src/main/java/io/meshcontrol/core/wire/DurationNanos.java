package io.meshcontrol.core.wire;

import java.time.Duration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.ser.std.StdSerializer;

/** Go's {@code time.Duration} on the wire: a JSON integer of nanoseconds. A zero duration counts as empty. */
final class DurationNanos {

    private DurationNanos() {
    }

    static final class Writer extends StdSerializer<Duration> {
        Writer() {
            super(Duration.class);
        }

        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializationContext ctxt) {
            gen.writeNumber(value.toNanos());
        }

        @Override
        public boolean isEmpty(SerializationContext ctxt, Duration value) {
            return value == null || value.isZero();
        }
    }

    static final class Reader extends StdDeserializer<Duration> {
        Reader() {
            super(Duration.class);
        }

        @Override
        public Duration deserialize(JsonParser p, DeserializationContext ctxt) {
            return Duration.ofNanos(p.getValueAsLong());
        }
    }
}
