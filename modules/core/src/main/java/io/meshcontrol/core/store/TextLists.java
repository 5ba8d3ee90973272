package io.meshcontrol.core.store;

import java.util.Arrays;
import java.util.List;

/** Short lists of tokens without spaces (tags, scopes, endpoints) are stored space-separated. */
final class TextLists {

    private TextLists() {
    }

    static String join(List<String> items) {
        return String.join(" ", items);
    }

    static List<String> split(String text) {
        return text == null || text.isBlank() ? List.of() : Arrays.asList(text.trim().split(" +"));
    }
}
