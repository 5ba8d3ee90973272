package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spec's "Key minting rules", one test per rule. */
class KeyMintingRulesTest {

    @TempDir
    Path folder;
    TestNetwork net;
    ApiKeys keys;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        keys = net.network.apiKeys();
        net.user("alice", Role.ADMIN);
        net.user("ivan", Role.IT_ADMIN);
        net.user("mia", Role.MEMBER);
    }

    @Test
    void keyWithoutUserIsAllAccess() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", null);
        assertNull(issued.key().ownerUserId());
        assertTrue(keys.authenticate(issued.secret()).orElseThrow().isAllAccess());
    }

    @Test
    void keyForUserIsBoundedByThatUsersRole() {
        Caller ivan = net.callerFor("ivan", List.of());
        assertTrue(ivan.may("users"));
        assertTrue(ivan.may("dns:read"));
        assertEquals(false, ivan.may("policy_file"), "it-admin does not edit the policy");
    }

    @Test
    void scopesBeyondTheOwnersRoleAreDropped() {
        ApiKeys.Issued issued = keys.create(net.admin, "ivan", List.of("users", "policy_file"), "", null);
        assertEquals(List.of("users"), issued.key().scopes());
        assertEquals(List.of("policy_file"), issued.droppedScopes());
    }

    @Test
    void scopesTheCallerCannotDelegateAreDropped() {
        Caller scoped = net.callerFor(null, List.of("api_access_tokens", "dns"));
        ApiKeys.Issued issued = keys.create(scoped, null, List.of("dns", "users"), "", null);
        assertEquals(List.of("dns"), issued.key().scopes());
        assertEquals(List.of("users"), issued.droppedScopes());
    }

    @Test
    void requestIsRefusedWhenNoScopeCanBeDelegated() {
        Caller scoped = net.callerFor(null, List.of("api_access_tokens", "dns"));
        MeshException refused = assertThrows(MeshException.class,
                () -> keys.create(scoped, null, List.of("users", "policy_file"), "", null));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertTrue(refused.getMessage().startsWith("none of the requested scopes can be delegated"), refused.getMessage());
        assertTrue(refused.getMessage().contains("\"users\" is not held by this credential"), refused.getMessage());
    }

    @Test
    void refusalNamesTheOwnersRoleWhenThatIsTheReason() {
        MeshException refused = assertThrows(MeshException.class,
                () -> keys.create(net.admin, "mia", List.of("users"), "", null));
        assertTrue(refused.getMessage().contains("exceeds the role member of user mia"), refused.getMessage());
    }

    @Test
    void keyWithoutScopesKeepsTheOwnersWholeRole() {
        ApiKeys.Issued issued = keys.create(net.admin, "ivan", List.of(), "", null);
        assertEquals(List.of(), issued.key().scopes());
        net.network.users().update(net.admin, issued.owner().id(), new Users.UserChange(null, null, null, Role.ADMIN));
        assertTrue(keys.authenticate(issued.secret()).orElseThrow().isAllAccess(), "the role is read at request time");
    }

    @Test
    void keyMadeByAScopedKeyInheritsItsScopes() {
        Caller scoped = net.callerFor(null, List.of("api_access_tokens", "dns"));
        ApiKeys.Issued issued = keys.create(scoped, null, List.of(), "", null);
        assertEquals(List.of("api_access_tokens", "dns"), issued.key().scopes());
    }

    @Test
    void boundedCallerCannotMintAnAllAccessKey() {
        Caller ivan = net.callerFor("ivan", List.of());
        ApiKeys.Issued issued = keys.create(ivan, null, List.of(), "", null);
        Caller minted = keys.authenticate(issued.secret()).orElseThrow();
        assertEquals(false, minted.isAllAccess());
        assertEquals("ivan", minted.owner().name());
    }

    @Test
    void accessTokenCannotMintApiKeys() {
        Caller token = new Caller(Caller.Kind.ACCESS_TOKEN, "oauth:x", null, null, List.of("all"));
        MeshException refused = assertThrows(MeshException.class, () -> keys.create(token, null, List.of(), "", null));
        assertTrue(refused.getMessage().contains("OAuth access token cannot mint API keys"));
    }

    @Test
    void memberCannotMintKeysAtAll() {
        Caller mia = net.callerFor("mia", List.of());
        MeshException refused = assertThrows(MeshException.class, () -> keys.create(mia, null, List.of(), "", null));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertTrue(refused.getMessage().contains("api_access_tokens"));
    }

    @Test
    void unknownScopeIsRefusedByName() {
        MeshException refused = assertThrows(MeshException.class,
                () -> keys.create(net.admin, null, List.of("everything"), "", null));
        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertTrue(refused.getMessage().contains("\"everything\""));
    }
}
