package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.wire.RegisterRequest;
import io.meshcontrol.core.wire.RegisterResponse;
import io.meshcontrol.core.wire.WireJson;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registration protocol's cases, answered as real clients would be (requests as tailscaled writes them). */
class RegisterEndpointTest {

    @TempDir
    Path folder;
    TestServer server;
    RegisterEndpoint endpoint;
    final MachinePublicKey machine = MachinePrivateKey.generate().publicKey();

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        endpoint = new RegisterEndpoint(server.network.registrations(), server.network.pendingLogins(), "http://mesh.example",
                Clock.systemUTC());
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String authKey(boolean ephemeral) {
        return server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, ephemeral, false, "", null))
                .secret();
    }

    private static RegisterRequest request(int version, NodePublicKey nodeKey, NodePublicKey oldKey, String authKey,
            String expiry, String followup) {
        String auth = authKey == null ? "" : ",\"Auth\":{\"AuthKey\":\"" + authKey + "\"}";
        return WireJson.read("""
                {"Version":%d,"NodeKey":"%s","OldNodeKey":"%s","NLKey":"nlpub:%s"%s,"Expiry":"%s","Followup":"%s",
                 "Hostinfo":{"Hostname":"laptop","OS":"linux","BackendLogID":"abc"},"NodeKeySignature":null}
                """.formatted(version, nodeKey.toText(), oldKey == null ? NodePublicKey.ZERO.toText() : oldKey.toText(),
                "0".repeat(64), auth, expiry, followup), RegisterRequest.class);
    }

    private RegisterResponse register(RegisterRequest request) throws InterruptedException {
        return endpoint.register(machine, request);
    }

    private static final String NO_EXPIRY = "0001-01-01T00:00:00Z";
    private static final String LOGOUT = "1970-01-01T00:02:03Z";

    @Test
    void authKeyRegistersAndAnswersWithTheUser() throws Exception {
        RegisterResponse response = register(request(142, NodePrivateKey.generate().publicKey(), null, authKey(false),
                NO_EXPIRY, ""));
        assertEquals("", response.error());
        assertTrue(response.machineAuthorized());
        assertEquals("alice@example.com", response.login().loginName());
        assertEquals("", response.authUrl());
    }

    @Test
    void refusedKeyIsAnErrorTheClientShows() throws Exception {
        RegisterResponse response = register(request(142, NodePrivateKey.generate().publicKey(), null,
                "svckey-auth-aaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", NO_EXPIRY, ""));
        assertEquals("invalid auth key: not a key of this network", response.error());
    }

    @Test
    void clientsOlderThanTheFloorAreRefusedByName() throws Exception {
        RegisterResponse response = register(request(112, NodePrivateKey.generate().publicKey(), null, authKey(false),
                NO_EXPIRY, ""));
        assertTrue(response.error().contains("use Tailscale 1.80 or newer"), response.error());
        assertTrue(server.network.nodes().list(Caller.localAdmin()).isEmpty());
    }

    @Test
    void restartWithAKnownKeyNeedsNoAuthAndExpiredKeysAreSaid() throws Exception {
        NodePublicKey nodeKey = NodePrivateKey.generate().publicKey();
        register(request(142, nodeKey, null, authKey(false), NO_EXPIRY, ""));
        RegisterResponse restart = register(request(142, nodeKey, null, null, NO_EXPIRY, ""));
        assertEquals("", restart.authUrl());
        assertTrue(restart.machineAuthorized());

        Node node = server.network.nodes().list(Caller.localAdmin()).getFirst();
        server.network.nodes().expire(Caller.localAdmin(), node.id());
        assertTrue(register(request(142, nodeKey, null, null, NO_EXPIRY, "")).nodeKeyExpired());
    }

    @Test
    void aNewNodeKeyOfAKnownMachineIsALoginAndTheNodeKeepsItsKeyAndExpiryUntilItCompletes() throws Exception {
        server.network.settings().update(Caller.localAdmin(), new Settings.Change(null, null, 30, null));
        NodePublicKey oldKey = NodePrivateKey.generate().publicKey();
        register(request(142, oldKey, null, authKey(false), NO_EXPIRY, ""));
        Node before = server.network.nodes().list(Caller.localAdmin()).getFirst();
        assertNotNull(before.keyExpiry());

        // tailscale up --force-reauth: a new node key, OldNodeKey the current one, no auth key, no follow-up
        NodePublicKey newKey = NodePrivateKey.generate().publicKey();
        RegisterResponse reauth = register(request(142, newKey, oldKey, null, NO_EXPIRY, ""));
        assertTrue(reauth.authUrl().startsWith("http://mesh.example/register/"), "a login, not a silent rotation");
        Node waiting = server.network.nodes().get(Caller.localAdmin(), before.id());
        assertEquals(oldKey, waiting.nodeKey());
        assertEquals(before.keyExpiry(), waiting.keyExpiry());

        CompletableFuture<RegisterResponse> followUp = CompletableFuture.supplyAsync(() -> {
            try {
                return register(request(142, newKey, oldKey, null, NO_EXPIRY, reauth.authUrl()));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        String authId = reauth.authUrl().substring(reauth.authUrl().lastIndexOf('/') + 1);
        server.network.pendingLogins().complete(Caller.localAdmin(), authId, "alice");
        assertEquals("", followUp.get().authUrl());
        Node after = server.network.nodes().get(Caller.localAdmin(), before.id());
        assertEquals(newKey, after.nodeKey());
        assertEquals(1, server.network.nodes().list(Caller.localAdmin()).size());
        AuditEntry entry = server.network.auditLog().recent("node.register", 1).getFirst();
        assertEquals(Long.toString(before.id()), entry.target());
        assertEquals(before.keyExpiry().toString(), entry.details().get("oldKeyExpiry"));
        assertEquals(after.keyExpiry().toString(), entry.details().get("newKeyExpiry"));
    }

    @Test
    void logoutExpiresTheKeyOrRemovesAnEphemeralNode() throws Exception {
        NodePublicKey nodeKey = NodePrivateKey.generate().publicKey();
        register(request(142, nodeKey, null, authKey(false), NO_EXPIRY, ""));
        RegisterResponse loggedOut = register(request(142, nodeKey, null, null, LOGOUT, ""));
        assertTrue(loggedOut.nodeKeyExpired());
        assertTrue(server.network.nodes().list(Caller.localAdmin()).getFirst().keyExpiry() != null);

        NodePublicKey ephemeralKey = NodePrivateKey.generate().publicKey();
        MachinePublicKey other = MachinePrivateKey.generate().publicKey();
        new RegisterEndpoint(server.network.registrations(), server.network.pendingLogins(), "http://mesh.example",
                Clock.systemUTC())
                .register(other, request(142, ephemeralKey, null, authKey(true), NO_EXPIRY, ""));
        new RegisterEndpoint(server.network.registrations(), server.network.pendingLogins(), "http://mesh.example",
                Clock.systemUTC())
                .register(other, request(142, ephemeralKey, null, null, LOGOUT, ""));
        assertEquals(1, server.network.nodes().list(Caller.localAdmin()).size(), "the ephemeral node is gone");
    }

    @Test
    void interactiveLoginAnswersAnAuthUrlAndTheFollowUpWaitsForCompletion() throws Exception {
        NodePublicKey nodeKey = NodePrivateKey.generate().publicKey();
        RegisterResponse pending = register(request(142, nodeKey, null, null, NO_EXPIRY, ""));
        assertTrue(pending.authUrl().startsWith("http://mesh.example/register/"), pending.authUrl());
        assertFalse(pending.machineAuthorized());

        CompletableFuture<RegisterResponse> followUp = CompletableFuture.supplyAsync(() -> {
            try {
                return register(request(142, nodeKey, null, null, NO_EXPIRY, pending.authUrl()));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        String authId = pending.authUrl().substring(pending.authUrl().lastIndexOf('/') + 1);
        server.network.pendingLogins().complete(Caller.localAdmin(), authId, "alice");
        RegisterResponse done = followUp.get();
        assertEquals("", done.authUrl());
        assertEquals("alice@example.com", done.login().loginName());
    }

    /** The person may finish the login before the client's follow-up arrives: the follow-up is then done at once. */
    @Test
    void aFollowUpArrivingAfterTheLoginCompletedSucceeds() throws Exception {
        NodePublicKey nodeKey = NodePrivateKey.generate().publicKey();
        RegisterResponse pending = register(request(142, nodeKey, null, null, NO_EXPIRY, ""));
        String authId = pending.authUrl().substring(pending.authUrl().lastIndexOf('/') + 1);
        server.network.pendingLogins().complete(Caller.localAdmin(), authId, "alice");
        RegisterResponse done = register(request(142, nodeKey, null, null, NO_EXPIRY, pending.authUrl()));
        assertEquals("", done.authUrl(), "no second login");
        assertEquals("alice@example.com", done.login().loginName());
        assertEquals(1, server.network.nodes().list(Caller.localAdmin()).size());
    }

    /** An administrator refused the login (console, svc auth refuse-login): the client is told, early or late. */
    @Test
    void aRefusedLoginIsAnErrorTheClientShows() throws Exception {
        NodePublicKey nodeKey = NodePrivateKey.generate().publicKey();
        RegisterResponse pending = register(request(142, nodeKey, null, null, NO_EXPIRY, ""));
        String authId = pending.authUrl().substring(pending.authUrl().lastIndexOf('/') + 1);
        server.network.pendingLogins().reject(Caller.localAdmin(), authId);
        RegisterResponse refused = register(request(142, nodeKey, null, null, NO_EXPIRY, pending.authUrl()));
        assertTrue(refused.error().contains("an administrator refused this machine's login"), refused.error());
        assertEquals("", refused.authUrl());
        assertEquals(0, server.network.nodes().list(Caller.localAdmin()).size());
    }

    @Test
    void followUpOfAnUnknownLoginGetsAFreshUrl() throws Exception {
        RegisterResponse response = register(request(142, NodePrivateKey.generate().publicKey(), null, null, NO_EXPIRY,
                "http://mesh.example/register/nosuchid"));
        assertTrue(response.authUrl().startsWith("http://mesh.example/register/"));
        assertFalse(response.authUrl().endsWith("nosuchid"));
    }
}
