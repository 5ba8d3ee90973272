package io.meshcontrol.server.v1;

import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.api.AuditPage;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.AuditFilter;
import io.meshcontrol.core.state.AuditLog;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.List;

/** {@code GET /api/v1/audit}: the audit log, newest first, filtered and paged by entry id. */
public final class AuditRoutes {

    static final int DEFAULT_LIMIT = 100;

    private final AuditLog log;

    public AuditRoutes(AuditLog log) {
        this.log = log;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/audit", request -> {
            AuditFilter filter = filter(request);
            List<AuditEntry> entries = log.find(request.caller(), filter);
            Long next = entries.size() == filter.limit() ? entries.getLast().id() : null;
            return Reply.ok(new AuditPage(entries.stream().map(AuditRoutes::view).toList(), next));
        });
    }

    private static AuditFilter filter(ApiRequest request) {
        long limit = number(request, "limit").orElse((long) DEFAULT_LIMIT);
        if (limit > AuditFilter.MAX_LIMIT) {
            throw MeshException.invalid("limit must be between 1 and " + AuditFilter.MAX_LIMIT + ", got " + limit);
        }
        long before = number(request, "before").orElse(0L);
        return new AuditFilter(text(request, "actor"), text(request, "action"), text(request, "target"),
                request.queryTime("since").orElse(null), request.queryTime("until").orElse(null), before, (int) limit);
    }

    private static String text(ApiRequest request, String name) {
        return request.query(name).filter(value -> !value.isEmpty()).orElse(null);
    }

    private static java.util.Optional<Long> number(ApiRequest request, String name) {
        return request.query(name).map(value -> {
            if (!value.matches("[1-9][0-9]{0,17}")) {
                throw MeshException.invalid(name + " must be a positive whole number, got \"" + value + "\"");
            }
            return Long.parseLong(value);
        });
    }

    private static AuditEntryView view(AuditEntry e) {
        return new AuditEntryView(e.id(), e.at(), e.actor(), e.source(), e.action(), e.target(), e.details());
    }
}
