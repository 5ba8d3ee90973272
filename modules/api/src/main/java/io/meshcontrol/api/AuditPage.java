package io.meshcontrol.api;

import java.util.List;

/**
 * {@code GET /api/v1/audit}: a page of audit entries, newest first.
 *
 * @param next the {@code before} value that reads the next (older) page, absent (null) when this page is the last
 */
public record AuditPage(List<AuditEntryView> entries, Long next) {
}
