package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Duration;
import java.time.Instant;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.json.JsonGeneratorBase;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * The JSON mapper of the control protocol, shaped after Go's {@code encoding/json} so that real clients read what we
 * write exactly as they read Tailscale's own server:
 * <ul>
 *   <li>only record components annotated with their exact Go name are written, in the records' (Go's) order, and
 *       left out only where Go's tags say ({@link OmitEmpty}, {@link OmitNull}; everything else is always written,
 *       {@code null} included); helper methods such as {@code isLiteUpdate()} are never mistaken for fields;</li>
 *   <li>keys, times, addresses and bytes have Go's text forms ({@link GoTime}, {@link IpPrefix}, {@link Base64Bytes});
 *       maps with integer keys get decimal-string keys;</li>
 *   <li>reading is lenient where Go is: unknown fields are skipped (newer clients add fields), {@code null} for a
 *       number or boolean leaves it zero; trailing garbage after the value is an error, as in Go.</li>
 * </ul>
 * The mapper is immutable and thread-safe. Reading errors are {@link JacksonException}s (unchecked) naming the field.
 */
public final class WireJson {

    private static final JsonMapper MAPPER = build();

    private WireJson() {
    }

    private static JsonMapper build() {
        SimpleModule module = new SimpleModule("meshcontrol-wire");
        KeyJson.register(module);
        module.addSerializer(Instant.class, new GoTime.Writer());
        module.addDeserializer(Instant.class, new GoTime.Reader());
        module.addSerializer(Duration.class, new DurationNanos.Writer());
        module.addDeserializer(Duration.class, new DurationNanos.Reader());
        return JsonMapper.builder()
                .addModule(module)
                .changeDefaultPropertyInclusion(incl -> JsonInclude.Value.construct(
                        JsonInclude.Include.ALWAYS, JsonInclude.Include.ALWAYS))
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                // Only the @JsonProperty components are the wire: helpers such as isLiteUpdate() are not fields
                .changeDefaultVisibility(visibility -> visibility
                        .withGetterVisibility(JsonAutoDetect.Visibility.NONE)
                        .withIsGetterVisibility(JsonAutoDetect.Visibility.NONE)
                        .withFieldVisibility(JsonAutoDetect.Visibility.NONE))
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // Raw values (CapMap arguments, Hostinfo) keep their numbers as written: 2.50 stays 2.50
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build();
    }

    /**
     * Whether a serializer may write kept JSON text raw into this generator: only into JSON text (bytes or
     * characters). A tree being built ({@code valueToTree}; Jackson 3.2 builds it with a generator of its own, not a
     * {@code TokenBuffer}) would keep raw text as one opaque value instead of the objects and arrays it holds.
     */
    static boolean writesText(JsonGenerator gen) {
        return gen instanceof JsonGeneratorBase;
    }

    /** The shared mapper. */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    /** Compact UTF-8 JSON of a wire record. */
    public static byte[] write(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    /** Compact JSON text of a wire record. */
    public static String writeString(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /**
     * Reads one JSON document into a wire record.
     *
     * @throws JacksonException when it is not JSON or a field has the wrong shape (a bad key, address or time)
     */
    public static <T> T read(byte[] json, Class<T> type) {
        return MAPPER.readValue(json, type);
    }

    /** Like {@link #read(byte[], Class)}, from text. */
    public static <T> T read(String json, Class<T> type) {
        return MAPPER.readValue(json, type);
    }
}
