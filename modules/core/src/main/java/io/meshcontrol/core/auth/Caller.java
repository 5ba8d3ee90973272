package io.meshcontrol.core.auth;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.ApiKey;
import io.meshcontrol.core.model.User;
import java.util.List;

/**
 * Who is making a request, and what they may do.
 *
 * @param apiKey the key used, or null for the local administrator credential
 * @param owner the key's owner, or null
 * @param effectiveScopes what the caller may do now (explicit scopes bounded by the owner's role)
 */
public record Caller(Kind kind, String actor, ApiKey apiKey, User owner, List<String> effectiveScopes) {

    public enum Kind {
        /** The credential the server writes for the CLI on its own machine. */
        LOCAL_ADMIN,
        API_KEY,
        /** An OAuth or federated access token; it cannot mint API keys. */
        ACCESS_TOKEN,
        /** A person's browser session, from an OIDC login: bounded by the user's role. */
        SESSION
    }

    public Caller {
        effectiveScopes = List.copyOf(effectiveScopes);
    }

    public static Caller localAdmin() {
        return new Caller(Kind.LOCAL_ADMIN, "local-admin", null, null, List.of(Scopes.ALL));
    }

    /** The caller behind a stored key: explicit scopes, bounded by the owner's role at the time of the request. */
    public static Caller forApiKey(ApiKey key, User owner) {
        List<String> scopes = ScopeBounds.effective(key.scopes(), owner == null ? null : owner.role());
        return new Caller(Kind.API_KEY, "apikey:" + key.id(), key, owner, scopes);
    }

    /** The caller behind a browser session: the user, with the whole of the user's role. */
    public static Caller forSession(User user) {
        return new Caller(Kind.SESSION, "user:" + user.name(), null, user,
                RoleScopes.of(user.role()));
    }

    public boolean isAllAccess() {
        return effectiveScopes.contains(Scopes.ALL);
    }

    /** True for a key that carries explicit scopes: keys it mints inherit them. */
    public boolean isScoped() {
        return apiKey != null && !apiKey.scopes().isEmpty();
    }

    public boolean may(String scope) {
        return Scopes.covers(effectiveScopes, scope);
    }

    public void require(String scope) {
        if (!may(scope)) {
            throw MeshException.forbidden("this credential lacks the scope \"" + scope + "\"");
        }
    }
}
