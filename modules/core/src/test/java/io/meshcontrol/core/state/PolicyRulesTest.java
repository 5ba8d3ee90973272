package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy as stored (verbatim, validated, ETag) and the tag rules it drives. */
class PolicyRulesTest {

    private static final String POLICY = """
            {
              // who may use which tags
              "groups": {"group:ops": ["ivan@example.com"]},
              "tagOwners": {
                "tag:server": ["group:ops"],
                "tag:web": ["tag:server", "alice@example.com"],
                "tag:ci": ["autogroup:admin"],
              },
            }
            """;

    @TempDir
    Path folder;
    TestNetwork net;
    final List<MeshEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.network.users().create(net.admin, new Users.NewUser("alice", null, "alice@example.com", Role.MEMBER));
        net.network.users().create(net.admin, new Users.NewUser("ivan", null, "ivan@example.com", Role.IT_ADMIN));
        net.network.events().subscribe(events::add);
        net.policy(POLICY);
    }

    private Node register(String keyUser, List<String> keyTags, List<String> advertised) {
        String key = net.authKey(AuthKey.of(keyUser, keyTags));
        return net.join(Machine.named("m").hostinfo("{}").requestingTags(advertised), key);
    }

    @Test
    void policyIsKeptVerbatimAndAnnounced() {
        assertEquals(POLICY, net.network.policies().get(net.admin).policy().text());
        assertTrue(events.isEmpty() || events.getLast() instanceof MeshEvent.PolicyUpdated);
        net.policy(POLICY + "\n");
        assertTrue(events.getLast() instanceof MeshEvent.PolicyUpdated);
    }

    @Test
    void rejectedPolicyChangesNothing() {
        String etag = net.network.policies().get(net.admin).etag();
        MeshException refused = assertThrows(MeshException.class,
                () -> net.policy("{\"tagOwners\": {\"tag:x\": [\"group:nobody\"]}}"));
        assertEquals("tagOwners[\"tag:x\"]: group not found: \"group:nobody\"", refused.getMessage());
        assertEquals(etag, net.network.policies().get(net.admin).etag());
        assertThrows(MeshException.class, () -> net.policy("{ not json"));
        assertEquals(POLICY, net.network.policies().get(net.admin).policy().text());
    }

    @Test
    void conditionalWritesNeedTheCurrentEtag() {
        String etag = net.network.policies().get(net.admin).etag();
        net.network.policies().set(net.admin, POLICY + " ", etag);
        MeshException stale = assertThrows(MeshException.class, () -> net.network.policies().set(net.admin, POLICY, etag));
        assertEquals(MeshException.Reason.PRECONDITION_FAILED, stale.reason());
        net.network.policies().set(net.admin, POLICY, "*");
        assertEquals(POLICY, net.network.policies().get(net.admin).policy().text());
    }

    @Test
    void tagsMustBeDefinedInTagOwners() {
        MeshException refused = assertThrows(MeshException.class, () -> register(null, List.of("tag:nope"), List.of()));
        assertEquals("requested tags [tag:nope] are invalid or not permitted", refused.getMessage());
    }

    @Test
    void aUserMayAdvertiseTagsItOwnsDirectlyOrThroughAGroup() {
        Node web = register("alice", List.of(), List.of("tag:web"));
        assertEquals(List.of("tag:web"), web.tags());
        assertNull(web.userId(), "a tagged node belongs to its tags");
        assertEquals(List.of("tag:server"), register("ivan", List.of(), List.of("tag:server")).tags());
    }

    @Test
    void aUserMayNotAdvertiseTagsItDoesNotOwn() {
        MeshException refused = assertThrows(MeshException.class, () -> register("alice", List.of(), List.of("tag:server")));
        assertEquals("requested tags [tag:server] are invalid or not permitted", refused.getMessage());
        assertTrue(net.network.nodes().list(net.admin).isEmpty(), "nothing registered");
    }

    @Test
    void aTaggedKeyMayAdvertiseTagsItsTagsOwn() {
        assertEquals(List.of("tag:web"), register(null, List.of("tag:server"), List.of("tag:web")).tags());
        assertThrows(MeshException.class, () -> register(null, List.of("tag:web"), List.of("tag:server")));
    }

    @Test
    void keysWithTagsNeedACallerThatOwnsThem() {
        Caller alice = net.callerFor("ivan", List.of());
        net.network.preAuthKeys().create(alice, new PreAuthKeys.NewKey(null, List.of("tag:server"), false, false, false, "", null));
        MeshException refused = assertThrows(MeshException.class, () -> net.network.preAuthKeys().create(alice,
                new PreAuthKeys.NewKey(null, List.of("tag:ci"), false, false, false, "", null)));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertTrue(refused.getMessage().startsWith("requested tags [tag:ci] are not permitted"), refused.getMessage());
        MeshException undefined = assertThrows(MeshException.class, () -> net.network.preAuthKeys().create(alice,
                new PreAuthKeys.NewKey(null, List.of("tag:nope", "tag:ci"), false, false, false, "", null)));
        assertEquals(MeshException.Reason.INVALID, undefined.reason());
        assertEquals("requested tags [tag:nope] are invalid or not permitted", undefined.getMessage());
    }
}
