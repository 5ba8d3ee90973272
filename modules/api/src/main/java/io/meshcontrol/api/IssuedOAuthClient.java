package io.meshcontrol.api;

/**
 * A client or identity just created. {@code secret} ({@code svckey-client-<id>-<secret>}) is shown this once and
 * never again; a federated identity has none.
 */
public record IssuedOAuthClient(OAuthClientView oauthClient, String secret) {
}
