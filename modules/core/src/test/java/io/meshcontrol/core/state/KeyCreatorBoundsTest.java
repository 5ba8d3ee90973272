package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key is bounded by its owner's role and by its creator's role, both read when it is used: a key a network-admin
 * mints for the owner never does more than the network-admin can do now, and stops working when they are deleted.
 */
class KeyCreatorBoundsTest {

    @TempDir
    Path folder;
    TestNetwork net;
    ApiKeys keys;
    Users users;
    User owner;
    User nina;
    Caller networkAdmin;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        keys = net.network.apiKeys();
        users = net.network.users();
        owner = net.user("olga", Role.OWNER);
        nina = net.user("nina", Role.NETWORK_ADMIN);
        networkAdmin = net.callerFor("nina", List.of());
    }

    private Caller authenticated(ApiKeys.Issued issued) {
        return keys.authenticate(issued.secret()).orElseThrow();
    }

    private void demote(User user, Role role) {
        users.update(net.admin, user.id(), new Users.UserChange(null, null, null, role));
    }

    @Test
    void aKeyMintedForTheOwnerCarriesOnlyTheMintersScopesAndRecordsTheMinter() {
        ApiKeys.Issued issued = keys.create(networkAdmin, "olga", List.of(), "", null);
        assertEquals(owner.id(), issued.key().ownerUserId());
        assertEquals(nina.id(), issued.key().creatorUserId());
        Caller minted = authenticated(issued);
        assertTrue(minted.may("dns"));
        assertFalse(minted.may("users"), "the owner's role holds users, the network-admin's does not");
    }

    @Test
    void aDeletedCreatorsKeysStopWorking() {
        ApiKeys.Issued issued = keys.create(networkAdmin, "olga", List.of(), "", null);
        users.delete(net.admin, nina.id());
        assertTrue(keys.authenticate(issued.secret()).isEmpty(), "the key outlived its creator");
        assertTrue(keys.list(net.admin).stream().noneMatch(l -> l.key().id().equals(issued.key().id())),
                "deleting a user deletes the keys they made, as it deletes the keys they own");
    }

    @Test
    void aDemotedCreatorsKeysLoseWhatTheCreatorLost() {
        ApiKeys.Issued issued = keys.create(networkAdmin, "olga", List.of(), "", null);
        demote(nina, Role.AUDITOR);
        Caller minted = authenticated(issued);
        assertFalse(minted.may("dns"));
        assertTrue(minted.may("dns:read"));
        demote(nina, Role.NETWORK_ADMIN);
        assertTrue(authenticated(issued).may("dns"), "read at request time, both ways");
    }

    @Test
    void explicitScopesAreBoundedByTheCreatorToo() {
        ApiKeys.Issued issued = keys.create(networkAdmin, "olga", List.of("policy_file"), "", null);
        demote(nina, Role.MEMBER);
        assertEquals(List.of(), authenticated(issued).effectiveScopes());
    }

    @Test
    void theOwnerStillBoundsTheKey() {
        User mia = net.user("mia", Role.NETWORK_ADMIN);
        ApiKeys.Issued issued = keys.create(networkAdmin, "mia", List.of(), "", null);
        demote(mia, Role.AUDITOR);
        assertFalse(authenticated(issued).may("dns"));
    }

    @Test
    void anAllAccessKeyMadeByAnAdminFollowsTheAdminsRole() {
        User adam = net.user("adam", Role.ADMIN);
        Caller adminKey = net.callerFor("adam", List.of());
        ApiKeys.Issued ownerless = keys.create(adminKey, null, List.of(), "", null);
        assertNull(ownerless.key().ownerUserId());
        assertTrue(authenticated(ownerless).isAllAccess());
        demote(adam, Role.AUDITOR);
        Caller now = authenticated(ownerless);
        assertFalse(now.isAllAccess());
        assertTrue(now.may("users:read"));
        assertFalse(now.may("users"));
    }

    @Test
    void keysOfTheLocalAdminAndOfOldRowsAreBoundedByTheirOwnerOnly() {
        ApiKeys.Issued issued = keys.create(net.admin, "olga", List.of(), "", null);
        assertNull(issued.key().creatorUserId());
        assertTrue(authenticated(issued).isAllAccess());

        // A row from before creators were recorded: the migration leaves its creator NULL.
        ApiKeys.Issued old = keys.create(networkAdmin, "olga", List.of(), "", null);
        net.network.database().jdbi().useHandle(h -> h.execute(
                "UPDATE api_keys SET creator_user_id = NULL WHERE id = ?", old.key().id()));
        demote(nina, Role.MEMBER);
        assertTrue(authenticated(old).may("dns"), "bounded by its owner only");
        users.delete(net.admin, nina.id());
        assertTrue(keys.authenticate(old.secret()).isPresent());
    }

    @Test
    void keysMadeWithAMintedKeyStayBoundedByEveryoneBehindIt() {
        ApiKeys.Issued forOwner = keys.create(networkAdmin, "olga", List.of(), "", null);
        Caller minted = authenticated(forOwner);
        ApiKeys.Issued again = keys.create(minted, "olga", List.of(), "", null);
        assertEquals(nina.id(), again.key().creatorUserId(), "the network-admin still bounds it");
        ApiKeys.Issued forCreator = keys.create(minted, "nina", List.of(), "", null);
        assertEquals(owner.id(), forCreator.key().creatorUserId(), "the owner of the minting key bounds it");

        net.user("mia", Role.ADMIN);
        MeshException refused = assertThrows(MeshException.class, () -> keys.create(minted, "mia", List.of(), "", null));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertTrue(refused.getMessage().contains("only for olga or for the user who made it"), refused.getMessage());

        users.delete(net.admin, nina.id());
        assertTrue(keys.authenticate(again.secret()).isEmpty());
        assertTrue(keys.authenticate(forCreator.secret()).isEmpty(), "owned by the deleted user");
    }

    @Test
    void theCreatorBoundSurvivesARestartAndARotation() {
        ApiKeys.Issued issued = keys.create(networkAdmin, "olga", List.of(), "", null);
        ApiKeys.Issued rotated = keys.rotate(net.admin, issued.key().prefix(), null);
        assertEquals(nina.id(), rotated.key().creatorUserId());
        demote(nina, Role.AUDITOR);
        Network reopened = net.reopened(folder);
        Caller minted = reopened.apiKeys().authenticate(rotated.secret()).orElseThrow();
        assertEquals(nina.id(), minted.apiKey().creatorUserId());
        assertFalse(minted.may("dns"));
    }

    @Test
    void onlyACallerWhoCouldMintAKeyMayManageIt() {
        User ivan = net.user("ivan", Role.IT_ADMIN);
        ApiKeys.Issued issued = keys.create(networkAdmin, "olga", List.of(), "", null);
        Caller itAdmin = net.callerFor("ivan", List.of());
        MeshException refused = assertThrows(MeshException.class, () -> keys.expire(itAdmin, issued.key().prefix()));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        demote(nina, Role.AUDITOR);
        assertEquals(issued.key().id(), keys.expire(itAdmin, issued.key().prefix()).key().id(),
                "the key now holds only what an auditor holds, which an it-admin could mint");
        assertEquals(Role.IT_ADMIN, ivan.role());
    }
}
