package io.meshcontrol.server.v1;

import io.meshcontrol.core.MeshException;
import java.util.ArrayList;
import java.util.List;

/** The {@code ids} of a bulk request that names items by number (nodes, pre-auth keys), and back to text. */
final class BulkIds {

    private BulkIds() {
    }

    /** Refuses (400) a missing list and every id that is not a decimal number, naming them all. */
    static List<Long> numbers(List<String> ids) {
        if (ids == null) {
            throw MeshException.invalid("a bulk action needs the field \"ids\"");
        }
        List<Long> numbers = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (String id : ids) {
            if (id.matches("0|[1-9][0-9]{0,17}")) {
                numbers.add(Long.parseLong(id));
            } else {
                bad.add("\"" + id + "\"");
            }
        }
        if (!bad.isEmpty()) {
            throw MeshException.invalid("ids must be decimal ids; not ids: " + String.join(", ", bad));
        }
        return numbers;
    }

    static List<String> texts(List<Long> ids) {
        return ids.stream().map(String::valueOf).toList();
    }
}
