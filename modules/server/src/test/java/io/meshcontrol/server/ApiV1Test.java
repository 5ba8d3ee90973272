package io.meshcontrol.server;

import io.meshcontrol.server.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.IssuedApiKey;
import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Users and API keys through the Java client against a running server. */
class ApiV1Test {

    @TempDir
    Path folder;
    TestServer server;
    MeshClient admin;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        admin = server.adminClient();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void serverInfoCarriesTheNetworkId() {
        var info = admin.server();
        assertEquals(server.network.tailnetId(), info.tailnetId());
        assertTrue(info.tailnetId().endsWith("CNTRL"));
        assertEquals("mesh.test", info.baseDomain());
        assertEquals(info.version(), admin.version().version());
    }

    @Test
    void userLifecycle() {
        UserView odin = admin.createUser(new UserRequest("odin", "Odin", "odin@example.com", "admin"));
        assertEquals("admin", odin.role());
        assertEquals(odin, admin.user("odin"));
        UserView renamed = admin.updateUser(odin.id(), UserRequest.rename("wotan"));
        assertEquals("wotan", renamed.name());
        assertEquals("auditor", admin.updateUser(odin.id(), UserRequest.role("auditor")).role());
        assertEquals(List.of("wotan"), admin.users().stream().map(UserView::name).toList());
        admin.deleteUser(odin.id());
        ApiException gone = assertThrows(ApiException.class, () -> admin.user("wotan"));
        assertEquals(404, gone.status());
    }

    @Test
    void apiKeyLifecycleOverHttp() {
        IssuedApiKey issued = admin.createApiKey(new ApiKeyRequest(null, null, "ci", "720h"));
        MeshClient withKey = server.client(issued.secret());
        assertEquals(server.network.tailnetId(), withKey.server().tailnetId());

        IssuedApiKey rotated = admin.rotateApiKey(issued.apiKey().prefix(), null);
        assertEquals(issued.apiKey().id(), rotated.apiKey().id());
        assertEquals(issued.apiKey().expiresAt(), rotated.apiKey().expiresAt());
        assertEquals(401, assertThrows(ApiException.class, withKey::server).status(), "old secret refused at once");

        MeshClient rotatedClient = server.client(rotated.secret());
        assertEquals(server.network.tailnetId(), rotatedClient.server().tailnetId());
        admin.expireApiKey(rotated.apiKey().prefix());
        assertEquals(401, assertThrows(ApiException.class, rotatedClient::server).status());
        assertTrue(admin.apiKeys().getFirst().expired());
        ApiException refused = assertThrows(ApiException.class, () -> admin.rotateApiKey(rotated.apiKey().prefix(), null));
        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("expired"));
    }

    @Test
    void anItAdminCannotTouchTheOwnerWhateverFieldItChanges() {
        UserView owner = admin.createUser(new UserRequest("olga", "Olga", "olga@example.com", "owner"));
        admin.createUser(new UserRequest("ivan", null, null, "it-admin"));
        MeshClient itAdmin = server.client(admin.createApiKey(new ApiKeyRequest("ivan", null, "", null)).secret());
        for (UserRequest change : List.of(UserRequest.rename("boss"), new UserRequest(null, null, "ivan@example.com", null),
                new UserRequest(null, "Ivan", null, null), UserRequest.role("member"))) {
            ApiException refused = assertThrows(ApiException.class, () -> itAdmin.updateUser(owner.id(), change));
            assertEquals(403, refused.status(), change.toString());
        }
        assertEquals(403, assertThrows(ApiException.class, () -> itAdmin.deleteUser(owner.id())).status());
        assertEquals(owner, admin.user("olga"));
        UserView mia = itAdmin.createUser(new UserRequest("mia", null, null, null));
        ApiException taken = assertThrows(ApiException.class,
                () -> itAdmin.updateUser(mia.id(), new UserRequest(null, null, "olga@example.com", null)));
        assertEquals(409, taken.status(), "nobody takes the owner's login name");
    }

    @Test
    void aKeyMintedForTheOwnerDiesWithTheNetworkAdminWhoMintedIt() {
        admin.createUser(new UserRequest("olga", null, null, "owner"));
        UserView nina = admin.createUser(new UserRequest("nina", null, null, "network-admin"));
        MeshClient networkAdmin = server.client(admin.createApiKey(new ApiKeyRequest("nina", null, "", null)).secret());
        MeshClient minted = server.client(networkAdmin.createApiKey(new ApiKeyRequest("olga", null, "", null)).secret());
        assertEquals(server.network.tailnetId(), minted.server().tailnetId());
        admin.updateUser(nina.id(), UserRequest.role("auditor"));
        assertEquals(403, assertThrows(ApiException.class,
                () -> minted.createApiKey(new ApiKeyRequest(null, null, "", null))).status(),
                "the minted key lost api_access_tokens with its creator");
        admin.deleteUser(nina.id());
        assertEquals(401, assertThrows(ApiException.class, minted::server).status());
    }

    @Test
    void anApiKeyLifetimeAboveTheCapIsRefusedNamingTheCap() {
        ApiException refused = assertThrows(ApiException.class,
                () -> admin.createApiKey(new ApiKeyRequest(null, null, "", "876000h")));
        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("8760h"), refused.getMessage());
        IssuedApiKey issued = admin.createApiKey(new ApiKeyRequest(null, null, "", null));
        ApiException rotation = assertThrows(ApiException.class,
                () -> server.client(issued.secret()).rotateApiKey(issued.apiKey().prefix(), "876000h"));
        assertEquals(400, rotation.status());
        assertEquals(issued.apiKey().expiresAt(), admin.apiKeys().getFirst().expiresAt());
    }

    @Test
    void secretIsNeverListed() {
        IssuedApiKey issued = admin.createApiKey(new ApiKeyRequest(null, null, "", null));
        String listing = server.request("GET", "/api/v1/apikey", server.localToken(), null).body();
        assertFalse(listing.contains(issued.secret().substring(issued.secret().lastIndexOf('-') + 1)));
        assertTrue(listing.contains(issued.apiKey().prefix()));
    }

    @Test
    void localCredentialIsOwnerOnlyAndRemovedOnStop() throws Exception {
        Path file = server.localCredentialPath();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        server.close();
        assertFalse(Files.exists(file));
    }

    @Test
    void aCredentialAnotherServerWroteSinceIsLeftOnStop() throws Exception {
        Path file = server.localCredentialPath();
        LocalAccess other = LocalAccess.ofThisProcess("http://127.0.0.1:1", "svckey-local-other", "other");
        other.write(file);
        server.close();
        assertEquals(other, LocalAccess.read(file));
    }

    @Test
    void versionMismatchIsReportedOnce() {
        List<String> warnings = new ArrayList<>();
        MeshClient old = new MeshClient(server.url(), server.localToken(), false, "0.0.1", warnings::add);
        old.server();
        old.users();
        assertEquals(1, warnings.size());
        assertTrue(warnings.getFirst().contains("0.0.1"));
        admin.server();
        assertTrue(server.clientWarnings.isEmpty(), "a client of the same version is not warned");
    }

    @Test
    void unreachableServerIsOneReadableError() {
        MeshClient nowhere = new MeshClient(URI.create("http://127.0.0.1:1"), "x", false, "v", w -> { });
        var error = assertThrows(io.meshcontrol.api.ServerUnreachableException.class, nowhere::server);
        assertTrue(error.getMessage().startsWith("cannot reach the server at http://127.0.0.1:1"), error.getMessage());
    }
}
