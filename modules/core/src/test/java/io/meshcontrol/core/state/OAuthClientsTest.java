package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.OAuthClient;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** OAuth clients, federated identities and their access tokens: each rule of the spec, one test. */
class OAuthClientsTest {

    private static final String POLICY = """
            {"groups": {"group:ops": ["olga"]},
             "tagOwners": {"tag:ci": ["group:ops"], "tag:ci-runner": ["tag:ci"], "tag:prod": ["autogroup:admin"]},
             "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""";

    @TempDir
    Path folder;
    TestNetwork net;
    OAuthClients clients;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        clients = net.network.oauthClients();
        net.policy(POLICY);
    }

    private OAuthClients.Issued client(List<String> scopes, List<String> tags) {
        return clients.create(net.admin, new OAuthClients.Fields("client", scopes, tags, "ci", null, null, null, null));
    }

    private static OAuthClients.Fields federated(String subject, Map<String, String> rules) {
        return new OAuthClients.Fields("federated", List.of("auth_keys"), List.of("tag:ci"), "", "https://issuer.example",
                "mesh", subject, rules);
    }

    private Caller tokenCaller(OAuthClients.Token token) {
        return clients.authenticate(token.text()).orElseThrow();
    }

    private static String refusal(MeshException.Reason reason, Executable call) {
        MeshException refused = assertThrows(MeshException.class, call);
        assertEquals(reason, refused.reason(), refused.getMessage());
        return refused.getMessage();
    }

    @Test
    void secretIsShownOnceAndStoredOnlyAsItsSlowHash() {
        OAuthClients.Issued issued = client(List.of("auth_keys"), List.of("tag:ci"));
        assertTrue(issued.secret().startsWith("svckey-client-" + issued.client().id() + "-"), issued.secret());
        assertFalse(issued.client().secretHash().contains(issued.secret().substring(27)));
        assertTrue(issued.client().secretHash().startsWith("pbkdf2-sha256$"), issued.client().secretHash());
        OAuthClient read = clients.get(net.admin, issued.client().id());
        assertEquals(issued.client().secretHash(), read.secretHash());
        assertEquals("local-admin", read.creator());
    }

    @Test
    void secretIsAcceptedWithEachClientPrefix() {
        String secret = client(List.of("auth_keys"), List.of("tag:ci")).secret();
        String rest = secret.substring("svckey-client-".length());
        for (String prefix : List.of("svckey-client-", "meshkey-client-", "tskey-client-")) {
            assertEquals(List.of("auth_keys"), clients.issueToken(prefix + rest, List.of()).scopes(), prefix);
        }
        refusal(MeshException.Reason.UNAUTHENTICATED, () -> clients.issueToken("tskey-auth-" + rest, List.of()));
    }

    @Test
    void tokenCarriesTheClientsScopesAndTagsForOneHour() {
        OAuthClients.Token token = clients.issueToken(client(List.of("auth_keys", "devices:core:read"),
                List.of("tag:ci")).secret(), List.of());
        assertEquals(Duration.ofHours(1), token.lifetime());
        Caller caller = tokenCaller(token);
        assertEquals(Caller.Kind.ACCESS_TOKEN, caller.kind());
        assertEquals(List.of("auth_keys", "devices:core:read"), caller.effectiveScopes());
        assertEquals(List.of("tag:ci"), caller.tags());
        net.clock.advance(Duration.ofMinutes(59));
        assertTrue(clients.authenticate(token.text()).isPresent());
        net.clock.advance(Duration.ofMinutes(1));
        assertTrue(clients.authenticate(token.text()).isEmpty());
    }

    @Test
    void tokenStaysValidAcrossARestart() {
        OAuthClients.Token token = clients.issueToken(client(List.of("auth_keys"), List.of("tag:ci")).secret(), List.of());
        Network restarted = net.reopened(folder);
        assertEquals(List.of("tag:ci"), restarted.oauthClients().authenticate(token.text()).orElseThrow().tags());
    }

    @Test
    void requestedScopesNarrowTheTokenAndCannotWidenIt() {
        String secret = client(List.of("devices:core", "dns"), List.of("tag:ci")).secret();
        assertEquals(List.of("devices:core:read"), clients.issueToken(secret, List.of("devices:core:read")).scopes());
        String message = refusal(MeshException.Reason.INVALID, () -> clients.issueToken(secret, List.of("dns", "users")));
        assertTrue(message.contains("[users]"), message);
    }

    @Test
    void revokedClientsSecretAndTokensStopWorking() {
        OAuthClients.Issued issued = client(List.of("auth_keys"), List.of("tag:ci"));
        OAuthClients.Token token = clients.issueToken(issued.secret(), List.of());
        OAuthClient revoked = clients.revoke(net.admin, issued.client().id());
        assertTrue(revoked.isRevoked());
        assertTrue(clients.authenticate(token.text()).isEmpty());
        refusal(MeshException.Reason.UNAUTHENTICATED, () -> clients.issueToken(issued.secret(), List.of()));
    }

    @Test
    void updateChangesOnlyTheFieldsSent() {
        OAuthClients.Issued issued = clients.create(net.admin, federated("repo:acme/*", Map.of("ref", "main")));
        String id = issued.client().id();
        OAuthClient updated = clients.update(net.admin, id,
                new OAuthClients.Fields(null, null, null, "now described", null, null, "repo:acme/app", null));
        assertEquals("repo:acme/app", updated.trust().subject());
        assertEquals("now described", updated.description());
        assertEquals(List.of("auth_keys"), updated.scopes());
        assertEquals(List.of("tag:ci"), updated.tags());
        assertEquals("https://issuer.example", updated.trust().issuer());
        assertEquals(Map.of("ref", "main"), updated.trust().customClaimRules());
        assertEquals(issued.client().createdAt(), clients.get(net.admin, id).createdAt());
        AuditEntry entry = net.network.auditLog().recent("oauthclient.update", 1).getFirst();
        assertEquals(Map.of("keyType", "federated", "oldSubject", "repo:acme/*", "newSubject", "repo:acme/app",
                "oldDescription", "", "newDescription", "now described"), entry.details(), "old and new of what changed");
    }

    @Test
    void trustConditionsForAPlainClientAreRefusedNamingThem() {
        String message = refusal(MeshException.Reason.INVALID, () -> clients.create(net.admin, new OAuthClients.Fields(
                "client", List.of("dns"), List.of(), "", "https://issuer.example", null, "x", null)));
        assertTrue(message.contains("[issuer, subject]"), message);
        String id = client(List.of("dns"), List.of()).client().id();
        message = refusal(MeshException.Reason.INVALID, () -> clients.update(net.admin, id,
                new OAuthClients.Fields(null, null, null, null, null, "aud", null, Map.of("a", "b"))));
        assertTrue(message.contains("[audience, customClaimRules]"), message);
    }

    @Test
    void reservedClaimsCannotBeCustomRules() {
        String message = refusal(MeshException.Reason.INVALID,
                () -> clients.create(net.admin, federated("x", Map.of("sub", "x", "aud", "y", "ref", "main"))));
        assertTrue(message.contains("[aud, sub]"), message);
    }

    @Test
    void emptyAudienceIsGenerated() {
        OAuthClient identity = clients.create(net.admin, new OAuthClients.Fields("federated", List.of("dns"), List.of(),
                "", "https://issuer.example", "", "x", null)).client();
        assertTrue(identity.trust().audience().startsWith(net.network.tailnetId() + "/" + identity.id() + "-"),
                identity.trust().audience());
    }

    @Test
    void clientNeverGetsAScopeItsCreatorLacks() {
        Caller creator = net.callerFor(null, List.of("oauth_keys", "dns"));
        String message = refusal(MeshException.Reason.FORBIDDEN, () -> clients.create(creator,
                new OAuthClients.Fields("client", List.of("dns", "users"), List.of(), "", null, null, null, null)));
        assertTrue(message.contains("[users]"), message);
        assertEquals(List.of("dns"), clients.create(creator, new OAuthClients.Fields("client", List.of("dns"), List.of(),
                "", null, null, null, null)).client().scopes());
    }

    @Test
    void clientGetsOnlyTagsItsCreatorOwns() {
        net.user("olga", Role.IT_ADMIN); // in group:ops, which owns tag:ci; an it-admin does not edit the policy
        Caller olga = net.callerFor("olga", List.of("oauth_keys", "auth_keys"));
        assertEquals(List.of("tag:ci"), clients.create(olga, new OAuthClients.Fields("client", List.of("auth_keys"),
                List.of("tag:ci"), "", null, null, null, null)).client().tags());
        String message = refusal(MeshException.Reason.FORBIDDEN, () -> clients.create(olga, new OAuthClients.Fields(
                "client", List.of("auth_keys"), List.of("tag:prod"), "", null, null, null, null)));
        assertTrue(message.contains("[tag:prod]"), message);
    }

    @Test
    void allAccessCreatorMayGiveAnyDefinedTagButNoUndefinedOne() {
        assertEquals(List.of("tag:prod"), client(List.of("auth_keys"), List.of("tag:prod")).client().tags());
        String message = refusal(MeshException.Reason.INVALID, () -> client(List.of("auth_keys"), List.of("tag:nowhere")));
        assertTrue(message.contains("[tag:nowhere]"), message);
    }

    @Test
    void tagsAreRequiredWithDevicesCoreOrAuthKeys() {
        String message = refusal(MeshException.Reason.INVALID, () -> client(List.of("devices:core", "dns"), List.of()));
        assertTrue(message.contains("devices:core"), message);
        assertEquals(List.of("dns"), client(List.of("dns"), List.of()).client().scopes());
    }

    @Test
    void tokenMayCreateClientsOnlyWithinItsOwnScopesAndTags() {
        Caller token = tokenCaller(clients.issueToken(client(List.of("oauth_keys", "auth_keys"), List.of("tag:ci"))
                .secret(), List.of()));
        assertEquals(List.of("tag:ci-runner"), clients.create(token, new OAuthClients.Fields("client",
                List.of("auth_keys"), List.of("tag:ci-runner"), "", null, null, null, null)).client().tags());
        refusal(MeshException.Reason.FORBIDDEN, () -> clients.create(token, new OAuthClients.Fields("client",
                List.of("auth_keys"), List.of("tag:prod"), "", null, null, null, null)));
        refusal(MeshException.Reason.FORBIDDEN, () -> clients.create(token, new OAuthClients.Fields("client",
                List.of("dns"), List.of(), "", null, null, null, null)));
    }

    @Test
    void accessTokenCannotMintApiKeys() {
        Caller token = tokenCaller(clients.issueToken(client(List.of("all"), List.of("tag:ci")).secret(), List.of()));
        String message = refusal(MeshException.Reason.FORBIDDEN,
                () -> net.network.apiKeys().create(token, null, List.of(), "", null));
        assertTrue(message.contains("OAuth access token cannot mint API keys"), message);
    }

    @Test
    void authKeyMintedWithATokenCarriesOnlyItsTagsOrTagsTheyOwn() {
        Caller token = tokenCaller(clients.issueToken(client(List.of("auth_keys"), List.of("tag:ci")).secret(), List.of()));
        PreAuthKeys keys = net.network.preAuthKeys();
        assertEquals(List.of("tag:ci"), keys.create(token, newKey(List.of("tag:ci"))).key().tags());
        assertEquals(List.of("tag:ci-runner"), keys.create(token, newKey(List.of("tag:ci-runner"))).key().tags());
        String message = refusal(MeshException.Reason.FORBIDDEN, () -> keys.create(token, newKey(List.of("tag:prod"))));
        assertTrue(message.contains("[tag:prod]"), message);
        refusal(MeshException.Reason.INVALID, () -> keys.create(token, newKey(List.of())));
    }

    @Test
    void tokenWithPolicyScopeIsStillBoundByItsTags() {
        Caller token = tokenCaller(clients.issueToken(client(List.of("auth_keys", "policy_file"), List.of("tag:ci"))
                .secret(), List.of()));
        refusal(MeshException.Reason.FORBIDDEN, () -> net.network.preAuthKeys().create(token, newKey(List.of("tag:prod"))));
    }

    private static PreAuthKeys.NewKey newKey(List<String> tags) {
        return new PreAuthKeys.NewKey(null, tags, false, true, false, "", null);
    }

    @Test
    void exchangeGrantsATokenWhenEveryConditionHolds() {
        OAuthClient identity = clients.create(net.admin, federated("repo:acme/*:ref:refs/heads/*",
                Map.of("repository_owner", "acme", "run_attempt", "1"))).client();
        OAuthClients.Token token = clients.exchange(identity.id(), "192.0.2.7", issuer -> Map.of("iss", issuer,
                "sub", "repo:acme/app:ref:refs/heads/main", "aud", List.of("other", "mesh"),
                "repository_owner", "acme", "run_attempt", 1));
        Caller caller = tokenCaller(token);
        assertEquals(List.of("auth_keys"), caller.effectiveScopes());
        assertEquals(List.of("tag:ci"), caller.tags());
        AuditEntry entry = net.network.auditLog().recent(OAuthClients.EXCHANGE_ACTION, 1).getFirst();
        assertEquals("granted", entry.details().get("result"));
        assertEquals("repo:acme/app:ref:refs/heads/main", entry.details().get("subject"));
    }

    @Test
    void everyRefusedExchangeIsAuditedWithItsReason() {
        OAuthClient identity = clients.create(net.admin, federated("repo:acme/*", Map.of("ref", "refs/heads/main"))).client();
        Map<String, Object> good = Map.of("sub", "repo:acme/app", "aud", "mesh", "ref", "refs/heads/main");
        List<Map<String, Object>> bad = List.of(
                merged(good, "aud", "elsewhere"),
                merged(good, "sub", "repo:evil/app"),
                merged(good, "ref", "refs/heads/dev"));
        for (Map<String, Object> claims : bad) {
            refusal(MeshException.Reason.UNAUTHENTICATED, () -> clients.exchange(identity.id(), "192.0.2.7", issuer -> claims));
        }
        refusal(MeshException.Reason.UNAUTHENTICATED, () -> clients.exchange(identity.id(), "192.0.2.7", issuer -> {
            throw MeshException.unauthenticated("ID token refused: the token expired");
        }));
        refusal(MeshException.Reason.UNAUTHENTICATED, () -> clients.exchange("nosuchid", "192.0.2.7", issuer -> good));
        List<AuditEntry> entries = net.network.auditLog().recent(OAuthClients.EXCHANGE_ACTION, 10);
        assertEquals(5, entries.size());
        assertTrue(entries.stream().allMatch(e -> "refused".equals(e.details().get("result"))));
        assertTrue(entries.get(0).details().get("reason").contains("no federated identity \"nosuchid\""));
        assertTrue(entries.get(1).details().get("reason").contains("expired"));
        assertTrue(entries.get(2).details().get("reason").contains("claim ref is \"refs/heads/dev\""));
        assertTrue(entries.get(3).details().get("reason").contains("subject \"repo:evil/app\""));
        assertTrue(entries.get(4).details().get("reason").contains("audience [elsewhere]"));
    }

    @Test
    void plainClientCannotBeUsedForAnExchange() {
        String id = client(List.of("dns"), List.of()).client().id();
        String message = refusal(MeshException.Reason.UNAUTHENTICATED, () -> clients.exchange(id, "192.0.2.7", issuer -> Map.of()));
        assertTrue(message.contains("not a federated identity"), message);
    }

    @Test
    void createUpdateAndRevokeAreAudited() {
        String id = client(List.of("dns"), List.of()).client().id();
        clients.update(net.admin, id, new OAuthClients.Fields(null, List.of("dns:read"), null, null, null, null, null, null));
        clients.revoke(net.admin, id);
        List<String> actions = net.network.auditLog().recent(null, 3).stream().map(AuditEntry::action).toList();
        assertEquals(List.of("oauthclient.revoke", "oauthclient.update", "oauthclient.create"), actions);
    }

    @Test
    void tokenOfAClientNarrowedLaterHoldsOnlyWhatTheClientHasNow() {
        OAuthClients.Issued issued = client(List.of("dns", "users"), List.of());
        OAuthClients.Token token = clients.issueToken(issued.secret(), List.of());
        clients.update(net.admin, issued.client().id(),
                new OAuthClients.Fields(null, List.of("dns"), null, null, null, null, null, null));
        assertEquals(List.of("dns"), tokenCaller(token).effectiveScopes());
    }

    @Test
    void listShowsWhatTheCallerMayReadAndATokenMayReadItsOwnClient() {
        OAuthClient plain = client(List.of("dns"), List.of()).client();
        clients.create(net.admin, federated("x", null));
        assertEquals(2, clients.list(net.admin).size());
        Caller readsClients = net.callerFor(null, List.of("oauth_keys:read"));
        assertEquals(List.of(plain.id()), clients.list(readsClients).stream().map(OAuthClient::id).toList());
        OAuthClients.Issued own = client(List.of("dns"), List.of());
        Caller token = tokenCaller(clients.issueToken(own.secret(), List.of()));
        assertEquals(own.client().id(), clients.get(token, own.client().id()).id());
        refusal(MeshException.Reason.FORBIDDEN, () -> clients.get(token, plain.id()));
        assertNull(clients.get(net.admin, plain.id()).trust());
        assertNotEquals(own.client().id(), plain.id());
    }

    private static Map<String, Object> merged(Map<String, Object> base, String key, Object value) {
        Map<String, Object> copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
