package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/preauthkey}. */
public record PreAuthKeyList(List<PreAuthKeyView> preAuthKeys) {
}
