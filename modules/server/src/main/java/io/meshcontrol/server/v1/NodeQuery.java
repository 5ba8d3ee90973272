package io.meshcontrol.server.v1;

import io.meshcontrol.api.NodeView;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.netmap.context.ReleaseVersions;
import io.meshcontrol.server.http.ApiRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The query parameters of {@code GET /api/v1/node}: filters, a sort and a page (docs/api.md, "Listing nodes"). Without
 * any, every node the caller may read is listed in id order, as before they existed. A bad value is refused (400)
 * naming its parameter, and so is a parameter this list does not know.
 *
 * @param filter which views are listed
 * @param order their order; null keeps id order
 * @param offset how many matching views to skip
 * @param limit how many to list at most; null for all
 */
record NodeQuery(Predicate<NodeView> filter, Comparator<NodeView> order, int offset, Integer limit) {

    /** The largest page. */
    static final int MOST_PER_PAGE = 1000;
    /** "Key expiring soon": within this of now. */
    static final Duration EXPIRING_SOON = Duration.ofDays(7);

    private static final Set<String> EXIT_ROUTES = Set.of("0.0.0.0/0", "::/0");

    /** A sortable column: what it compares, and how; absent values sort last in either direction. */
    private record Column<T>(Function<NodeView, T> key, Comparator<T> order) {
        Comparator<NodeView> comparator(boolean descending) {
            return Comparator.comparing(key, Comparator.nullsLast(descending ? order.reversed() : order));
        }
    }

    private static final Map<String, Column<?>> SORTS = Map.of(
            "name", new Column<>(NodeView::name, String.CASE_INSENSITIVE_ORDER),
            "hostname", new Column<>(NodeView::hostname, String.CASE_INSENSITIVE_ORDER),
            "user", new Column<>(v -> v.user() != null ? v.user() : v.tags().isEmpty() ? null : v.tags().getFirst(),
                    String.CASE_INSENSITIVE_ORDER),
            "os", new Column<>(v -> v.client().os(), String.CASE_INSENSITIVE_ORDER),
            "version", new Column<String>(v -> v.client().version(), ReleaseVersions::compare),
            "ipv4", new Column<>(NodeView::ipv4, Comparator.comparingLong(NodeQuery::ipv4Number)),
            "lastSeen", new Column<>(NodeView::lastSeen, Comparator.<Instant>naturalOrder()),
            "createdAt", new Column<>(NodeView::createdAt, Comparator.<Instant>naturalOrder()),
            "keyExpiry", new Column<>(NodeView::keyExpiry, Comparator.<Instant>naturalOrder()),
            "region", new Column<>(v -> v.client().homeRegion() == 0 ? null : v.client().homeRegionName() != null
                    ? v.client().homeRegionName() : Integer.toString(v.client().homeRegion()),
                    String.CASE_INSENSITIVE_ORDER));

    private static final List<String> TEXT_FILTERS = List.of("q", "os", "version", "tag", "user");
    private static final List<String> FLAGS = List.of("online", "expired", "needsApproval", "routesWaiting", "exitNode",
            "subnetRouter", "updateAvailable", "keyExpiring");
    private static final List<String> PAGING = List.of("sort", "order", "offset", "limit");

    static NodeQuery from(ApiRequest request, Instant now) {
        Set<String> known = new TreeSet<>(TEXT_FILTERS);
        known.addAll(FLAGS);
        known.addAll(PAGING);
        for (String name : new TreeSet<>(request.queryNames())) {
            if (!known.contains(name)) {
                throw MeshException.invalid("unknown query parameter \"" + name + "\"; this list takes "
                        + String.join(", ", known));
            }
        }
        List<Predicate<NodeView>> filters = new ArrayList<>();
        request.query("q").filter(q -> !q.isBlank()).ifPresent(q -> filters.add(words(q)));
        request.query("os").ifPresent(os -> filters.add(v -> os.equalsIgnoreCase(v.client().os())));
        request.query("version").ifPresent(version -> filters.add(v -> v.client().version() != null
                && (v.client().version().equals(version) || v.client().version().startsWith(version + "."))));
        request.query("tag").ifPresent(tag -> {
            String wanted = tag.startsWith("tag:") ? tag : "tag:" + tag;
            filters.add(v -> v.tags().contains(wanted));
        });
        request.query("user").ifPresent(user -> filters.add(v -> user.equalsIgnoreCase(v.user())));
        Instant soon = now.plus(EXPIRING_SOON);
        Map<String, Predicate<NodeView>> flags = Map.of(
                "online", NodeView::online,
                "expired", NodeView::expired,
                "needsApproval", v -> !v.authorized(),
                "routesWaiting", v -> !v.routes().approved().containsAll(v.routes().available()),
                "exitNode", v -> v.routes().available().stream().anyMatch(EXIT_ROUTES::contains),
                "subnetRouter", v -> v.routes().available().stream().anyMatch(r -> !EXIT_ROUTES.contains(r)),
                "updateAvailable", v -> Boolean.TRUE.equals(v.client().updateAvailable()),
                "keyExpiring", v -> v.keyExpiry() != null && v.keyExpiry().isAfter(now) && !v.keyExpiry().isAfter(soon));
        for (String flag : FLAGS) {
            request.query(flag).ifPresent(value -> {
                boolean wanted = bool(flag, value);
                Predicate<NodeView> test = flags.get(flag);
                filters.add(wanted ? test : test.negate());
            });
        }
        String direction = request.query("order").orElse("asc");
        if (!direction.equals("asc") && !direction.equals("desc")) {
            throw MeshException.invalid("order must be asc or desc, got \"" + direction + "\"");
        }
        Comparator<NodeView> order = request.query("sort").map(sort -> {
            Column<?> column = SORTS.get(sort);
            if (column == null) {
                throw MeshException.invalid("sort must be one of " + String.join(", ", new TreeSet<>(SORTS.keySet()))
                        + ", got \"" + sort + "\"");
            }
            return column.comparator(direction.equals("desc")).thenComparingLong(v -> Long.parseLong(v.id()));
        }).orElse(null);
        int offset = request.query("offset").map(o -> number("offset", o, 0, Integer.MAX_VALUE)).orElse(0);
        Integer limit = request.query("limit").map(l -> number("limit", l, 1, MOST_PER_PAGE)).orElse(null);
        return new NodeQuery(filters.stream().reduce(v -> true, Predicate::and), order, offset, limit);
    }

    /** This query's page of {@code views}, which are in id order. */
    List<NodeView> page(List<NodeView> matching) {
        List<NodeView> sorted = order == null ? matching : matching.stream().sorted(order).toList();
        int from = Math.min(offset, sorted.size());
        int to = limit == null ? sorted.size() : (int) Math.min((long) from + limit, sorted.size());
        return sorted.subList(from, to);
    }

    private static Predicate<NodeView> words(String text) {
        String[] words = text.toLowerCase(Locale.ROOT).trim().split("\\s+");
        return v -> {
            String haystack = String.join(" ", v.name(), v.hostname(), v.user() == null ? "" : v.user(),
                    v.ipv4() == null ? "" : v.ipv4(), v.ipv6() == null ? "" : v.ipv6(), String.join(" ", v.tags()))
                    .toLowerCase(Locale.ROOT);
            for (String word : words) {
                if (!haystack.contains(word)) {
                    return false;
                }
            }
            return true;
        };
    }

    private static boolean bool(String name, String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw MeshException.invalid(name + " must be true or false, got \"" + value + "\"");
        };
    }

    private static int number(String name, String value, int least, int most) {
        if (!value.matches("0|[1-9][0-9]{0,9}")) {
            throw MeshException.invalid(name + " must be a whole number from " + least + " to " + most + ", got \""
                    + value + "\"");
        }
        long number = Long.parseLong(value);
        if (number < least || number > most) {
            throw MeshException.invalid(name + " must be a whole number from " + least + " to " + most + ", got \""
                    + value + "\"");
        }
        return (int) number;
    }

    private static long ipv4Number(String address) {
        long number = 0;
        for (String part : address.split("\\.")) {
            number = number * 256 + Long.parseLong(part);
        }
        return number;
    }
}
