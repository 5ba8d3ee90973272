package io.meshcontrol.core.wire;

import io.meshcontrol.core.key.ChallengePublicKey;
import io.meshcontrol.core.key.Curve25519Key;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.KeyFormatException;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import java.util.function.Function;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Public keys as Go's {@code key.*Public} types marshal them: their text form ({@code nodekey:<64 hex>} ...). The zero
 * key is written as its prefix and 64 zeros; it counts as empty, so an {@link OmitEmpty} field leaves it out, as Go's
 * {@code omitzero} does through the key's {@code IsZero}.
 */
final class KeyJson {

    private KeyJson() {
    }

    static void register(SimpleModule module) {
        add(module, MachinePublicKey.class, MachinePublicKey::parse);
        add(module, NodePublicKey.class, NodePublicKey::parse);
        add(module, DiscoPublicKey.class, DiscoPublicKey::parse);
        add(module, ChallengePublicKey.class, ChallengePublicKey::parse);
    }

    private static <K extends Curve25519Key> void add(SimpleModule module, Class<K> type, Function<String, K> parse) {
        module.addSerializer(type, new Writer<>(type));
        module.addDeserializer(type, new Reader<>(type, parse));
    }

    private static final class Writer<K extends Curve25519Key> extends StdSerializer<K> {
        Writer(Class<K> type) {
            super(type);
        }

        @Override
        public void serialize(K key, JsonGenerator gen, SerializationContext ctxt) {
            gen.writeString(key.toText());
        }

        @Override
        public boolean isEmpty(SerializationContext ctxt, K key) {
            return key == null || key.isZero();
        }
    }

    private static final class Reader<K extends Curve25519Key> extends StdDeserializer<K> {
        private final Class<K> type;
        private final Function<String, K> parse;

        Reader(Class<K> type, Function<String, K> parse) {
            super(type);
            this.type = type;
            this.parse = parse;
        }

        @Override
        public K deserialize(JsonParser p, DeserializationContext ctxt) {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return type.cast(ctxt.handleUnexpectedToken(type, p));
            }
            String text = p.getString();
            try {
                return parse.apply(text);
            } catch (KeyFormatException e) {
                return type.cast(ctxt.handleWeirdStringValue(type, text, e.getMessage()));
            }
        }
    }
}
