package io.meshcontrol.core.auth;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.ApiKey;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Who is making a request, and what they may do.
 *
 * @param apiKey the key used, or null for the local administrator credential
 * @param owner the key's owner, or null
 * @param effectiveScopes what the caller may do now (explicit scopes bounded by the owner's and creator's roles)
 * @param tags the tags an access token holds (from its OAuth client or federated identity); empty for other callers
 * @param clientId the OAuth client or federated identity behind an access token, or null
 * @param source where the request came from (the peer's address), for the audit log; empty when not over the network
 */
public record Caller(Kind kind, String actor, ApiKey apiKey, User owner, List<String> effectiveScopes,
        List<String> tags, String clientId, String source) {

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
        tags = List.copyOf(tags);
        source = source == null ? "" : source;
    }

    public Caller(Kind kind, String actor, ApiKey apiKey, User owner, List<String> effectiveScopes,
            List<String> tags, String clientId) {
        this(kind, actor, apiKey, owner, effectiveScopes, tags, clientId, "");
    }

    /** A caller without tags: the local administrator or an API key. */
    public Caller(Kind kind, String actor, ApiKey apiKey, User owner, List<String> effectiveScopes) {
        this(kind, actor, apiKey, owner, effectiveScopes, List.of(), null);
    }

    /** The caller behind an OAuth access token: the scopes and tags it carries, no owner (the network owns it). */
    public static Caller forAccessToken(String clientId, List<String> scopes, List<String> tags) {
        return new Caller(Kind.ACCESS_TOKEN, "oauth:" + clientId, null, null, scopes, tags, clientId);
    }

    public static Caller localAdmin() {
        return new Caller(Kind.LOCAL_ADMIN, "local-admin", null, null, List.of(Scopes.ALL));
    }

    /**
     * The caller behind a stored key: explicit scopes, bounded by the owner's and the creator's roles at the time of
     * the request.
     *
     * @param creator the user who made the key, or null when none is recorded
     */
    public static Caller forApiKey(ApiKey key, User owner, User creator) {
        List<String> scopes = ScopeBounds.boundedByOwnerAndCreator(key.scopes(), owner, creator);
        return new Caller(Kind.API_KEY, "apikey:" + key.id(), key, owner, scopes);
    }

    /** The caller behind a browser session: the user, with the whole of the user's role. */
    public static Caller forSession(User user) {
        return new Caller(Kind.SESSION, "user:" + user.name(), null, user,
                RoleScopes.of(user.role()));
    }

    /** The same caller, seen arriving from {@code source}. */
    public Caller from(String source) {
        return new Caller(kind, actor, apiKey, owner, effectiveScopes, tags, clientId, source);
    }

    /** An entry for the audit log saying that this caller did {@code action} to {@code target} at {@code at}. */
    public AuditEntry audited(Instant at, String action, String target, Map<String, String> details) {
        return new AuditEntry(0, at, actor, source, action, target, details);
    }

    public boolean isAllAccess() {
        return effectiveScopes.contains(Scopes.ALL);
    }

    /** True for a key that carries explicit scopes: keys it mints inherit them. */
    public boolean isScoped() {
        return apiKey != null && !apiKey.scopes().isEmpty();
    }

    /**
     * The rank rule: true when this credential holds every scope of {@code role}, so that acting for a user of that
     * role (changing them, minting their keys) can never let it do more than it may itself.
     */
    public boolean holdsRole(Role role) {
        return Scopes.coversAll(effectiveScopes, RoleScopes.of(role));
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
