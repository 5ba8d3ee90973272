package io.meshcontrol.core.wire;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Go's {@code time.Time} on the wire: RFC 3339 with up to nine fraction digits, trailing zeros dropped
 * ({@code time.RFC3339Nano}); we always write UTC ({@code Z}). Go's zero time is {@code 0001-01-01T00:00:00Z}.
 *
 * <p>In the records a {@code null} {@link Instant} means "absent". Fields that Go tags {@code omitzero} never hold
 * {@link #ZERO} (their constructors turn it into {@code null}); fields that are pointers in Go
 * ({@code PeerChange.KeyExpiry}) may carry {@link #ZERO} as a real value ("never expires").
 */
public final class GoTime {

    /** Go's zero {@code time.Time}, {@code 0001-01-01T00:00:00Z}. */
    public static final Instant ZERO = LocalDateTime.of(1, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);

    private static final Instant FIRST_WRITABLE = ZERO;
    private static final Instant LAST_WRITABLE = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999)
            .toInstant(ZoneOffset.UTC);

    private GoTime() {
    }

    /** {@code null} for {@code null} or {@link #ZERO}, the instant otherwise: for fields Go tags {@code omitzero}. */
    static Instant orAbsent(Instant time) {
        return time == null || time.equals(ZERO) ? null : time;
    }

    /**
     * Formats as Go's {@code time.RFC3339Nano} in UTC, e.g. {@code 2026-01-02T03:04:05.5Z}.
     *
     * @throws IllegalArgumentException for years outside 0001..9999, which Go refuses to marshal too
     */
    public static String format(Instant time) {
        if (time.isBefore(FIRST_WRITABLE) || time.isAfter(LAST_WRITABLE)) {
            throw new IllegalArgumentException("a wire time must lie in the years 0001..9999: " + time);
        }
        LocalDateTime t = LocalDateTime.ofInstant(time, ZoneOffset.UTC);
        StringBuilder out = new StringBuilder(30);
        pad(out, t.getYear(), 4).append('-');
        pad(out, t.getMonthValue(), 2).append('-');
        pad(out, t.getDayOfMonth(), 2).append('T');
        pad(out, t.getHour(), 2).append(':');
        pad(out, t.getMinute(), 2).append(':');
        pad(out, t.getSecond(), 2);
        int nanos = t.getNano();
        if (nanos != 0) {
            int digits = 9;
            while (nanos % 10 == 0) {
                nanos /= 10;
                digits--;
            }
            pad(out.append('.'), nanos, digits);
        }
        return out.append('Z').toString();
    }

    /**
     * Parses RFC 3339 as Go's {@code time.Time.UnmarshalJSON} accepts it (any offset, up to nine fraction digits).
     *
     * @throws IllegalArgumentException when the text is not RFC 3339
     */
    public static Instant parse(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an RFC 3339 time: \"" + text + "\"", e);
        }
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits);
    }

    /** Writes {@link #format}; the zero time counts as empty, so {@link OmitEmpty} leaves it out. */
    static final class Writer extends StdSerializer<Instant> {
        Writer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializationContext ctxt) {
            gen.writeString(format(value));
        }

        @Override
        public boolean isEmpty(SerializationContext ctxt, Instant value) {
            return value == null || value.equals(ZERO);
        }
    }

    /** Writes a {@code null} time as Go's zero time, for the few time fields Go always writes. */
    static final class ZeroWriter extends StdSerializer<Object> {
        ZeroWriter() {
            super(Object.class);
        }

        @Override
        public void serialize(Object ignored, JsonGenerator gen, SerializationContext ctxt) {
            gen.writeString(format(ZERO));
        }
    }

    /** Reads {@link #parse}; JSON {@code null} reads as absent, as Go leaves the field untouched. */
    static final class Reader extends StdDeserializer<Instant> {
        Reader() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
            }
            try {
                return parse(p.getString());
            } catch (IllegalArgumentException e) {
                return (Instant) ctxt.handleWeirdStringValue(Instant.class, p.getString(), e.getMessage());
            }
        }
    }
}
