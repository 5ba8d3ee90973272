package io.meshcontrol.core.state;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The details of an audit entry, built field by field: plain facts, and changes recorded as {@code old<Field>} and
 * {@code new<Field>} (the form the spec gives for {@code apikey.rotate}'s prefixes) only when the value changed.
 */
final class AuditDetails {

    private final Map<String, String> details = new LinkedHashMap<>();

    static AuditDetails of() {
        return new AuditDetails();
    }

    /** A fact; null is written as the empty text. */
    AuditDetails put(String key, Object value) {
        details.put(key, value == null ? "" : String.valueOf(value));
        return this;
    }

    /** {@code old<Field>} and {@code new<Field>}, when the two differ. */
    AuditDetails change(String field, Object before, Object after) {
        if (!Objects.equals(before, after)) {
            String name = Character.toUpperCase(field.charAt(0)) + field.substring(1);
            put("old" + name, before);
            put("new" + name, after);
        }
        return this;
    }

    Map<String, String> map() {
        return details;
    }
}
