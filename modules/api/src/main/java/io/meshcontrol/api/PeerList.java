package io.meshcontrol.api;

import java.util.List;

/** The peers a node's map gives it, by node id ({@code GET /api/v1/node/{id}/peers}); none while it is not admitted. */
public record PeerList(List<PeerView> peers) {
}
