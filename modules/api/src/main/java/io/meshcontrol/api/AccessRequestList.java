package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/access-request}: newest first; everyone's for a policy reader, else the caller's own. */
public record AccessRequestList(List<AccessRequestView> accessRequests) {
}
