package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/oauth-client}: clients and federated identities the caller may read. */
public record OAuthClientList(List<OAuthClientView> oauthClients) {
}
