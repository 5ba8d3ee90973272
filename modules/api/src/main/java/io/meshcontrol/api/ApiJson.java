package io.meshcontrol.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.function.Consumer;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/** The JSON conventions of the v1 API: ISO-8601 times, absent instead of null. */
public final class ApiJson {

    private ApiJson() {
    }

    /**
     * @param strict read as the server reads a request body: an unknown field, a duplicate field, a value of another
     *     JSON type ({@code 1.5} or {@code "1"} for an integer, {@code "true"} or {@code 1} for a boolean, a number for
     *     a string) and {@code null} inside a list are errors, so that what is stored is what the client meant.
     *     Clients are lenient, so that a newer server can add fields.
     */
    public static JsonMapper mapper(boolean strict) {
        JsonMapper.Builder builder = JsonMapper.builder()
                .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
                .configure(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS, false)
                .configure(SerializationFeature.INDENT_OUTPUT, false);
        if (strict) {
            builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                    .changeDefaultNullHandling(nulls -> nulls.withContentNulls(Nulls.FAIL))
                    .withCoercionConfig(LogicalType.Integer, refuseAllBut(null))
                    .withCoercionConfig(LogicalType.Float, refuseAllBut(CoercionInputShape.Integer))
                    .withCoercionConfig(LogicalType.Boolean, refuseAllBut(null))
                    .withCoercionConfig(LogicalType.Textual, refuseAllBut(null))
                    .withCoercionConfig(LogicalType.Enum, refuseAllBut(null))
                    .withCoercionConfigDefaults(config -> config.setCoercion(CoercionInputShape.EmptyString,
                            CoercionAction.Fail));
        }
        return builder.build();
    }

    /** A scalar type takes its own JSON type only (and {@code allowed}, if not null): other coercions fail. */
    private static Consumer<MutableCoercionConfig> refuseAllBut(CoercionInputShape allowed) {
        return config -> {
            for (CoercionInputShape shape : CoercionInputShape.values()) {
                if (shape != allowed) {
                    config.setCoercion(shape, CoercionAction.Fail);
                }
            }
        };
    }
}
