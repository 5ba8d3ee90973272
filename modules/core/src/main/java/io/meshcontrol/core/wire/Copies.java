package io.meshcontrol.core.wire;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Immutable copies for the records, keeping {@code null} (absent) apart from empty. */
final class Copies {

    private Copies() {
    }

    /** {@code null} stays {@code null}; otherwise an unmodifiable copy (no {@code null} elements). */
    static <T> List<T> list(List<T> list) {
        return list == null ? null : List.copyOf(list);
    }

    /**
     * {@code null} stays {@code null}; otherwise an unmodifiable copy in the same order. {@code null} values are kept:
     * on the wire they mean something ("delete this entry", "capability without arguments").
     */
    static <K, V> Map<K, V> map(Map<K, V> map) {
        return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /**
     * For fields Go omits when empty: absent and empty mean the same, so the record holds an empty list, never
     * {@code null}; otherwise an unmodifiable copy.
     */
    static <T> List<T> orEmpty(List<T> list) {
        if (list instanceof PreEncodedList) {
            return list; // immutable already, and its encoded JSON is the point
        }
        return list == null || list.isEmpty() ? List.of() : List.copyOf(list);
    }

    /** Like {@link #orEmpty(List)} for maps; {@code null} values are kept. */
    static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
        return map == null || map.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** For byte fields Go omits when empty: empty bytes are absent ({@code null}). */
    static Base64Bytes orAbsent(Base64Bytes bytes) {
        return bytes == null || bytes.length() == 0 ? null : bytes;
    }

    /** Go never writes {@code null} for a string: absent text is {@code ""}. */
    static String text(String text) {
        return text == null ? "" : text;
    }
}
