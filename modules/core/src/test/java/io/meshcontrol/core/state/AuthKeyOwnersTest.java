package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/**
 * Who a pre-auth key may belong to: machines joined with a user's key act as that user, so a credential mints keys
 * only for its own user or for users whose role it holds whole, and an OAuth access token only tagged keys of the
 * network.
 */
class AuthKeyOwnersTest {

    private static final String POLICY = """
            {"tagOwners": {"tag:ci": ["autogroup:admin"], "tag:build": ["tag:ci"]},
             "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""";

    @TempDir
    Path folder;
    TestNetwork net;
    PreAuthKeys keys;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.policy(POLICY);
        keys = net.network.preAuthKeys();
        net.user("olga", Role.OWNER);
        net.user("adam", Role.ADMIN);
        net.user("nina", Role.NETWORK_ADMIN);
        net.user("ivan", Role.IT_ADMIN);
        net.user("mia", Role.MEMBER);
    }

    @Test
    void anAccessTokenCannotMintAKeyForAnyUser() {
        Caller token = Caller.forAccessToken("k123CNTRL", List.of("auth_keys"), List.of("tag:ci"));
        for (String user : List.of("olga", "mia", "nobody")) {
            MeshException refused = assertThrows(MeshException.class,
                    () -> keys.create(token, key(user, List.of())), user);
            assertEquals(MeshException.Reason.FORBIDDEN, refused.reason(), refused.getMessage());
            assertTrue(refused.getMessage().contains("OAuth access token"), refused.getMessage());
            MeshException alsoTagged = assertThrows(MeshException.class,
                    () -> keys.create(token, key(user, List.of("tag:ci"))), user + " with the token's tag");
            assertEquals(MeshException.Reason.FORBIDDEN, alsoTagged.reason(), alsoTagged.getMessage());
        }
        assertEquals(List.of(), keys.list(net.admin), "nothing was stored");
    }

    @Test
    void anAccessTokenMintsKeysWithItsTagsOrTagsTheyOwn() {
        Caller token = Caller.forAccessToken("k123CNTRL", List.of("auth_keys"), List.of("tag:ci"));
        assertEquals(List.of("tag:ci"), keys.create(token, key(null, List.of("tag:ci"))).key().tags());
        assertEquals(List.of("tag:build"), keys.create(token, key(null, List.of("tag:build"))).key().tags());
    }

    @Test
    void aNetworkAdminOrItAdminCannotMintKeysForTheOwnerOrAnAdmin() {
        for (String minter : List.of("nina", "ivan")) {
            Caller caller = net.callerFor(minter, List.of());
            for (String user : List.of("olga", "adam")) {
                MeshException refused = assertThrows(MeshException.class,
                        () -> keys.create(caller, key(user, List.of())), minter + " for " + user);
                assertEquals(MeshException.Reason.FORBIDDEN, refused.reason(), refused.getMessage());
                assertTrue(refused.getMessage().contains("user " + user), refused.getMessage());
            }
        }
        assertEquals(List.of(), keys.list(net.admin), "nothing was stored");
    }

    @Test
    void aCredentialMintsKeysForItsOwnUserAndForUsersWhoseRoleItHolds() {
        Caller nina = net.callerFor("nina", List.of());
        assertEquals("nina", keys.create(nina, key("nina", List.of())).user().name());
        assertEquals("mia", keys.create(nina, key("mia", List.of())).user().name());
        Caller adam = net.callerFor("adam", List.of());
        assertEquals("olga", keys.create(adam, key("olga", List.of())).user().name(), "an admin holds every role");
    }

    @Test
    void aKeyScopedToAuthKeysMintsForItsOwnUserOnlyAmongAdmins() {
        Caller scoped = net.callerFor("nina", List.of("auth_keys"));
        assertEquals("nina", keys.create(scoped, key("nina", List.of())).user().name());
        assertEquals("mia", keys.create(scoped, key("mia", List.of())).user().name(), "a member's role holds nothing");
        MeshException refused = assertThrows(MeshException.class, () -> keys.create(scoped, key("ivan", List.of())));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason(), refused.getMessage());
    }

    private static PreAuthKeys.NewKey key(String user, List<String> tags) {
        return new PreAuthKeys.NewKey(user, tags, true, false, false, "", null);
    }
}
