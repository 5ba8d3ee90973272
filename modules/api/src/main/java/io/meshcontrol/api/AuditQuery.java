package io.meshcontrol.api;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/**
 * The filters of {@code GET /api/v1/audit}; null fields filter nothing.
 *
 * @param action an action, or a prefix ending in a dot ({@code apikey.})
 * @param since RFC 3339: entries at or after it
 * @param until RFC 3339: entries before it
 * @param before an entry id: entries older than it (the {@code next} of the previous page)
 * @param limit at most this many (1 to 1000; the server's default is 100)
 */
public record AuditQuery(String actor, String action, String target, String since, String until, Long before,
        Integer limit) {

    /** The query string, without the leading {@code ?}. */
    public String queryString() {
        StringJoiner query = new StringJoiner("&");
        add(query, "actor", actor);
        add(query, "action", action);
        add(query, "target", target);
        add(query, "since", since);
        add(query, "until", until);
        add(query, "before", before == null ? null : before.toString());
        add(query, "limit", limit == null ? null : limit.toString());
        return query.toString();
    }

    private static void add(StringJoiner query, String name, String value) {
        if (value != null) {
            query.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }
}
