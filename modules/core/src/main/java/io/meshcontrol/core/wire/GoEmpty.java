package io.meshcontrol.core.wire;

import io.meshcontrol.core.key.Curve25519Key;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;

/**
 * The value filter behind {@link OmitEmpty}: Jackson calls {@link #equals} with a field's value and leaves the field
 * out when it answers true. True for what Go's {@code omitempty} and {@code omitzero} drop: {@code null}, {@code ""},
 * empty lists and maps, zero numbers, {@code false}, the zero key, the zero time, a zero duration and empty bytes.
 */
final class GoEmpty {

    @Override
    public boolean equals(Object value) {
        return switch (value) {
            case null -> true;
            case String text -> text.isEmpty();
            case Collection<?> list -> list.isEmpty();
            case Map<?, ?> map -> map.isEmpty();
            case Boolean bool -> !bool;
            case Integer number -> number == 0;
            case Long number -> number == 0;
            case Double number -> number == 0;
            case Curve25519Key key -> key.isZero();
            case Instant time -> time.equals(GoTime.ZERO);
            case Duration duration -> duration.isZero();
            case Base64Bytes bytes -> bytes.length() == 0;
            default -> false;
        };
    }

    @Override
    public int hashCode() {
        return 0;
    }
}
