package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.auth.ClientDelegation;
import io.meshcontrol.core.auth.KeySecret;
import io.meshcontrol.core.auth.Scopes;
import io.meshcontrol.core.auth.TrustConditions;
import io.meshcontrol.core.model.AccessToken;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.OAuthClient;
import io.meshcontrol.core.store.AccessTokenStore;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.OAuthClientStore;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * OAuth clients and federated identities (spec "OAuth client", "Federated identity", Authentication items 2, 4 and 5):
 * create (a client's secret shown once), read, list, update in place, revoke; and the access tokens they are
 * exchanged for, which last one hour, carry the client's scopes and tags, and are stored hashed so that a restart
 * keeps them valid.
 */
public final class OAuthClients {

    public static final Duration TOKEN_LIFETIME = Duration.ofHours(1);
    public static final String CLIENT_SCOPE = "oauth_keys";
    public static final String FEDERATED_SCOPE = "federated_keys";
    public static final String EXCHANGE_ACTION = "oauth.token.exchange";
    private static final int ID_LENGTH = 12;

    /**
     * What a request sets; null fields are left out (on update they keep their value).
     *
     * @param keyType {@code client} or {@code federated}; null means {@code client} on create, "unchanged" on update
     */
    public record Fields(String keyType, List<String> scopes, List<String> tags, String description, String issuer,
            String audience, String subject, Map<String, String> customClaimRules) {
    }

    /** A client just made, with the only copy of its secret (null for a federated identity). */
    public record Issued(OAuthClient client, String secret) {
    }

    /** An access token just issued, with the only copy of its text. */
    public record Token(String text, List<String> scopes, List<String> tags, Duration lifetime) {
    }

    /** Verifies a workload's ID token against an issuer; returns its claims, throws a {@link MeshException} if not. */
    @FunctionalInterface
    public interface IdTokenCheck {
        Map<String, Object> verify(String issuer);
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final OAuthClientStore clients;
    private final AccessTokenStore tokens;
    private final AuditStore audit;
    private final Policies policies;
    private final String tailnetId;
    private final Clock clock;

    OAuthClients(Jdbi jdbi, Writer writer, OAuthClientStore clients, AccessTokenStore tokens, AuditStore audit,
            Policies policies, String tailnetId, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.clients = clients;
        this.tokens = tokens;
        this.audit = audit;
        this.policies = policies;
        this.tailnetId = tailnetId;
        this.clock = clock;
    }

    public Issued create(Caller caller, Fields request) {
        OAuthClient.Kind kind = kind(request.keyType() == null ? OAuthClient.Kind.CLIENT.wireName() : request.keyType());
        return writer.change(caller, writeScope(kind), (h, now) -> {
            List<String> scopes = Scopes.requireKnown(request.scopes() == null ? List.of() : request.scopes());
            if (scopes.isEmpty()) {
                throw MeshException.invalid("an OAuth " + (kind == OAuthClient.Kind.CLIENT ? "client" : "federated identity")
                        + " needs at least one scope");
            }
            List<String> tags = Tags.requireValid(request.tags());
            boundByCreator(caller, scopes, tags);
            KeySecret secret = kind == OAuthClient.Kind.CLIENT ? clientSecret() : null;
            String id = secret != null ? secret.prefix() : identityId();
            OAuthClient.Trust trust = kind == OAuthClient.Kind.CLIENT ? noTrust(request)
                    : trust(id, new OAuthClient.Trust(request.issuer(), request.audience(), request.subject(),
                            request.customClaimRules()));
            OAuthClient client = new OAuthClient(id, kind, secret == null ? null : secret.hash(), scopes, tags,
                    request.description() == null ? "" : request.description(), trust, caller.actor(), now, now, null);
            clients.insert(h, client);
            audit.append(h, caller.audited(now, "oauthclient.create", id, details(client)));
            return new Issued(client, secret == null ? null : secret.text());
        });
    }

    /** One client or identity; a token may always read the client it came from. */
    public OAuthClient get(Caller caller, String id) {
        if (!id.equals(caller.clientId())) {
            requireEither(caller, ":read");
        }
        OAuthClient client = jdbi.withHandle(h -> find(h, id));
        if (!id.equals(caller.clientId())) {
            caller.require(writeScope(client.kind()) + ":read");
        }
        return client;
    }

    /** The clients and identities the caller may read: clients with {@code oauth_keys:read}, identities with {@code federated_keys:read}. */
    public List<OAuthClient> list(Caller caller) {
        requireEither(caller, ":read");
        boolean readsClients = caller.may(CLIENT_SCOPE + ":read");
        boolean readsIdentities = caller.may(FEDERATED_SCOPE + ":read");
        return jdbi.withHandle(h -> clients.all(h)).stream()
                .filter(c -> c.kind() == OAuthClient.Kind.CLIENT ? readsClients : readsIdentities).toList();
    }

    /** Changes in place what the request names; left-out fields keep their value. The id and a client's secret stay. */
    public OAuthClient update(Caller caller, String id, Fields change) {
        return writer.change(caller, held -> requireEither(held, ""), (h, now) -> {
            OAuthClient current = find(h, id);
            caller.require(writeScope(current.kind()));
            if (current.isRevoked()) {
                throw MeshException.invalid("OAuth client " + id + " was revoked and cannot be changed");
            }
            if (change.keyType() != null && kind(change.keyType()) != current.kind()) {
                throw MeshException.invalid("keyType cannot change: " + id + " is a " + current.kind().wireName()
                        + " key, not " + change.keyType());
            }
            List<String> scopes = change.scopes() == null ? current.scopes() : Scopes.requireKnown(change.scopes());
            if (scopes.isEmpty()) {
                throw MeshException.invalid("an OAuth client needs at least one scope");
            }
            List<String> tags = change.tags() == null ? current.tags() : Tags.requireValid(change.tags());
            boundByCreator(caller, scopes, tags);
            OAuthClient.Trust trust = current.kind() == OAuthClient.Kind.CLIENT ? noTrust(change)
                    : trust(id, new OAuthClient.Trust(
                            change.issuer() == null ? current.trust().issuer() : change.issuer(),
                            change.audience() == null ? current.trust().audience() : change.audience(),
                            change.subject() == null ? current.trust().subject() : change.subject(),
                            change.customClaimRules() == null ? current.trust().customClaimRules()
                                    : change.customClaimRules()));
            OAuthClient updated = new OAuthClient(id, current.kind(), current.secretHash(), scopes, tags,
                    change.description() == null ? current.description() : change.description(), trust,
                    current.creator(), current.createdAt(), now, null);
            clients.update(h, updated);
            OAuthClient.Trust before = current.trust();
            audit.append(h, caller.audited(now, "oauthclient.update", id, AuditDetails.of()
                    .put("keyType", current.kind().wireName())
                    .change("scopes", String.join(" ", current.scopes()), String.join(" ", scopes))
                    .change("tags", String.join(" ", current.tags()), String.join(" ", tags))
                    .change("description", current.description(), updated.description())
                    .change("issuer", before == null ? null : before.issuer(), trust == null ? null : trust.issuer())
                    .change("audience", before == null ? null : before.audience(),
                            trust == null ? null : trust.audience())
                    .change("subject", before == null ? null : before.subject(), trust == null ? null : trust.subject())
                    .change("customClaimRules", before == null ? null : before.customClaimRules(),
                            trust == null ? null : trust.customClaimRules()).map()));
            return updated;
        });
    }

    /** Revokes a client or identity: its secret and its tokens stop working at once; it stays readable as revoked. */
    public OAuthClient revoke(Caller caller, String id) {
        return writer.change(caller, held -> requireEither(held, ""), (h, now) -> {
            OAuthClient client = find(h, id);
            caller.require(writeScope(client.kind()));
            clients.revoke(h, id, now);
            tokens.deleteOfClient(h, id);
            audit.append(h, caller.audited(now, "oauthclient.revoke", id, Map.of("keyType", client.kind().wireName())));
            return clients.byId(h, id).orElseThrow();
        });
    }

    /**
     * The client credentials grant: a token for the client whose secret this is (the client id a request names is
     * not needed: node clients send a placeholder).
     *
     * @param requestedScopes scopes to narrow the token to; empty means all of the client's
     */
    public Token issueToken(String presentedSecret, List<String> requestedScopes) {
        Instant now = clock.instant();
        return jdbi.inTransaction(h -> {
            Optional<KeySecret> parsed = KeySecret.parse(KeySecret.Kind.CLIENT, presentedSecret);
            OAuthClient client = parsed.flatMap(p -> clients.byId(h, p.prefix()))
                    .filter(c -> c.kind() == OAuthClient.Kind.CLIENT && parsed.get().matches(c.secretHash()))
                    .orElseThrow(() -> MeshException.unauthenticated("invalid client credentials"));
            if (client.isRevoked()) {
                throw MeshException.unauthenticated("OAuth client " + client.id() + " was revoked");
            }
            List<String> scopes = requestedScopes.isEmpty() ? client.scopes() : narrowed(client, requestedScopes);
            return issue(h, client, scopes, now);
        });
    }

    /**
     * The federated exchange: the workload's token, verified by {@code check} against the identity's issuer, must
     * meet every trust condition. Every exchange, refusals included, is written to the audit log with its reason.
     *
     * @param source the address the exchange came from, for the audit log
     */
    public Token exchange(String clientId, String source, IdTokenCheck check) {
        String id = clientId == null ? "" : clientId.trim();
        Map<String, String> details = new LinkedHashMap<>();
        try {
            OAuthClient identity = jdbi.withHandle(h -> clients.byId(h, id)).orElseThrow(() ->
                    MeshException.unauthenticated("no federated identity \"" + id + "\""));
            if (identity.kind() != OAuthClient.Kind.FEDERATED) {
                throw MeshException.unauthenticated(id + " is an OAuth client, not a federated identity");
            }
            if (identity.isRevoked()) {
                throw MeshException.unauthenticated("federated identity " + id + " was revoked");
            }
            details.put("issuer", identity.trust().issuer());
            Map<String, Object> claims = check.verify(identity.trust().issuer());
            details.put("subject", String.valueOf(claims.get("sub")));
            TrustConditions.refusal(identity.trust(), claims).ifPresent(reason -> {
                throw MeshException.unauthenticated("ID token refused: " + reason);
            });
            Instant now = clock.instant();
            return jdbi.inTransaction(h -> {
                Token token = issue(h, identity, identity.scopes(), now);
                details.put("result", "granted");
                audit.append(h, new AuditEntry(0, now, "federated:" + id, source, EXCHANGE_ACTION, id, details));
                return token;
            });
        } catch (MeshException e) {
            details.put("result", "refused");
            details.put("reason", e.getMessage());
            Instant now = clock.instant();
            jdbi.useTransaction(h -> audit.append(h,
                    new AuditEntry(0, now, "federated:" + id, source, EXCHANGE_ACTION, id, details)));
            throw e;
        }
    }

    /** The caller an access token stands for; empty when it is unknown, wrong, expired or its client revoked. */
    public Optional<Caller> authenticate(String presented) {
        Optional<KeySecret> parsed = KeySecret.parse(KeySecret.Kind.TOKEN, presented);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return jdbi.withHandle(h -> {
            Optional<AccessToken> token = tokens.byPrefix(h, parsed.get().prefix())
                    .filter(t -> parsed.get().matches(t.secretHash()) && now.isBefore(t.expiresAt()));
            Optional<OAuthClient> client = token.flatMap(t -> clients.byId(h, t.clientId())).filter(c -> !c.isRevoked());
            if (client.isEmpty()) {
                return Optional.<Caller>empty();
            }
            // A client changed since the token was issued bounds it from then on: never more than it has now.
            List<String> scopes = token.get().scopes().stream().filter(s -> Scopes.covers(client.get().scopes(), s)).toList();
            List<String> tags = token.get().tags().stream().filter(client.get().tags()::contains).toList();
            return Optional.of(Caller.forAccessToken(client.get().id(), scopes, tags));
        });
    }

    private Token issue(Handle h, OAuthClient client, List<String> scopes, Instant now) {
        tokens.deleteExpired(h, now);
        KeySecret secret = KeySecret.generate(KeySecret.Kind.TOKEN);
        tokens.insert(h, new AccessToken(secret.prefix(), secret.hash(), client.id(), scopes, client.tags(), now,
                now.plus(TOKEN_LIFETIME)));
        return new Token(secret.text(), scopes, client.tags(), TOKEN_LIFETIME);
    }

    private static List<String> narrowed(OAuthClient client, List<String> requested) {
        List<String> refused = requested.stream().filter(s -> !Scopes.isKnown(s) || !Scopes.covers(client.scopes(), s)).toList();
        if (!refused.isEmpty()) {
            throw MeshException.invalid("the scopes " + refused + " are not granted to OAuth client " + client.id());
        }
        return List.copyOf(new java.util.LinkedHashSet<>(requested));
    }

    /** A client never gets more than its creator could delegate: scopes the creator holds, tags it may apply. */
    private void boundByCreator(Caller caller, List<String> scopes, List<String> tags) {
        ClientDelegation.requireDelegable(caller, scopes);
        ClientDelegation.requireTagsWhereNeeded(scopes, tags);
        TagRules.requireCallerMayApply(policies.policy(), caller, tags);
    }

    /** A plain client has no trust conditions: sending any is refused, naming them. */
    private static OAuthClient.Trust noTrust(Fields request) {
        List<String> sent = new ArrayList<>();
        if (request.issuer() != null) {
            sent.add("issuer");
        }
        if (request.audience() != null) {
            sent.add("audience");
        }
        if (request.subject() != null) {
            sent.add("subject");
        }
        if (request.customClaimRules() != null) {
            sent.add("customClaimRules");
        }
        if (!sent.isEmpty()) {
            throw MeshException.invalid("trust conditions " + sent + " are only for federated identities "
                    + "(keyType federated), not for an OAuth client");
        }
        return null;
    }

    private static MeshException badIssuer(String issuer) {
        return MeshException.invalid("issuer must be an https:// (or http://) URL with a host, got \"" + issuer + "\"");
    }

    /** Validates a federated identity's conditions; an empty audience gets one generated, as the vendor does. */
    private OAuthClient.Trust trust(String id, OAuthClient.Trust trust) {
        if (trust.issuer() == null || trust.issuer().isBlank()) {
            throw MeshException.invalid("a federated identity needs an issuer (the URL of the workload's OIDC issuer)");
        }
        try {
            URI uri = new URI(trust.issuer());
            // http is for an issuer on the same network (a test or a home lab); tokens name their issuer exactly
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null) {
                throw badIssuer(trust.issuer());
            }
        } catch (java.net.URISyntaxException e) {
            throw badIssuer(trust.issuer());
        }
        if (trust.subject() == null || trust.subject().isBlank()) {
            throw MeshException.invalid("a federated identity needs a subject (the token's sub; * matches any text)");
        }
        List<String> reserved = trust.customClaimRules().keySet().stream()
                .filter(TrustConditions.RESERVED_CLAIMS::contains).sorted().toList();
        if (!reserved.isEmpty()) {
            throw MeshException.invalid("customClaimRules may not name " + reserved
                    + ": use the issuer, audience and subject fields");
        }
        String audience = trust.audience() == null || trust.audience().isBlank()
                ? tailnetId + "/" + id + "-" + RandomText.lowerAlphanumeric(8) : trust.audience();
        return new OAuthClient.Trust(trust.issuer(), audience, trust.subject(), trust.customClaimRules());
    }

    /** A client's id is its secret's prefix. Numeric ids are auth keys' in /api/v2: client ids always hold a letter. */
    private static KeySecret clientSecret() {
        KeySecret secret;
        do {
            secret = KeySecret.generate(KeySecret.Kind.CLIENT);
        } while (allDigits(secret.prefix()));
        return secret;
    }

    private static String identityId() {
        String id;
        do {
            id = RandomText.lowerAlphanumeric(ID_LENGTH);
        } while (allDigits(id));
        return id;
    }

    private static boolean allDigits(String id) {
        return id.chars().allMatch(Character::isDigit);
    }

    private OAuthClient find(Handle h, String id) {
        return clients.byId(h, id).orElseThrow(() -> MeshException.notFound("no OAuth client or federated identity \"" + id + "\""));
    }

    private static OAuthClient.Kind kind(String keyType) {
        try {
            return OAuthClient.Kind.fromWireName(keyType);
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("keyType must be client or federated, got \"" + keyType + "\"");
        }
    }

    /** Refuses at once a caller that holds neither kind's scope, before anything is looked up. */
    private static void requireEither(Caller caller, String suffix) {
        if (!caller.may(CLIENT_SCOPE + suffix) && !caller.may(FEDERATED_SCOPE + suffix)) {
            throw MeshException.forbidden("this credential lacks the scope \"" + CLIENT_SCOPE + suffix + "\" or \""
                    + FEDERATED_SCOPE + suffix + "\"");
        }
    }

    private static String writeScope(OAuthClient.Kind kind) {
        return kind == OAuthClient.Kind.CLIENT ? CLIENT_SCOPE : FEDERATED_SCOPE;
    }

    private static Map<String, String> details(OAuthClient client) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("keyType", client.kind().wireName());
        details.put("scopes", String.join(" ", client.scopes()));
        details.put("tags", String.join(" ", client.tags()));
        if (client.trust() != null) {
            details.put("issuer", client.trust().issuer());
            details.put("subject", client.trust().subject());
        }
        return details;
    }
}
