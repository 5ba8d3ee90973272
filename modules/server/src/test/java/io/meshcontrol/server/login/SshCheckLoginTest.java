package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.LoginBrowser;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSH check mode with OIDC: the check page sends the person to the issuer for a fresh login ({@code prompt=login});
 * the owner of the source machine lets the held session in, anybody else refuses it for good.
 */
class SshCheckLoginTest {

    private static final Map<String, Object> FREYA = Map.of("email", "freya@example.com", "email_verified", true,
            "preferred_username", "freya", "name", "Freya");
    private static final Map<String, Object> LOKI = Map.of("email", "loki@example.com", "email_verified", true,
            "preferred_username", "loki", "name", "Loki");
    private static OidcIssuerFixture issuer;

    @TempDir
    Path folder;
    private TestServer server;
    private Node laptop;
    private Node target;

    @BeforeAll
    static void startIssuer() {
        issuer = OidcIssuerFixture.startWithLoginForm();
    }

    @AfterAll
    static void stopIssuer() {
        issuer.close();
    }

    @BeforeEach
    void start() {
        server = TestServer.in(folder).reachableServerUrl()
                .set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", issuer.issuer("people"))
                .set("oidc.client_id", "mesh")
                .set("oidc.client_secret", "s3cret").start();
        // Freya's laptop joins through her first login; the server is tagged.
        String authId = server.network.pendingLogins().start(new Registrations.Request(
                MachinePrivateKey.generate().publicKey(), NodePrivateKey.generate().publicKey(), "laptop",
                "{\"Hostname\":\"laptop\"}"), false);
        new LoginBrowser().logIn(server.url().resolve("/register/" + authId), "sub-freya", FREYA);
        laptop = server.network.nodes().list(Caller.localAdmin()).getFirst();
        server.network.policies().set(Caller.localAdmin(), """
                {"tagOwners": {"tag:server": ["autogroup:admin"]},
                 "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["tag:server"],
                          "users": ["root"]}]}""", null);
        target = Machine.named("server").join(server.network, AuthKey.forTags("tag:server").create(server.network));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String held() {
        return assertInstanceOf(SshChecks.Answer.Hold.class, server.network.sshChecks().request(target.machineKey(),
                laptop.id(), target.id(), "root", new AccessControl(server.network.policies())::sshCheckPeriod)).authId();
    }

    private SshChecks.Answer verdict(String authId) throws InterruptedException {
        return server.network.sshChecks().await(target.machineKey(), authId, Duration.ZERO).orElseThrow();
    }

    private URI page(String authId) {
        return server.url().resolve("/ssh/check/" + authId);
    }

    @Test
    void theOwnersFreshLoginLetsTheSessionIn() throws Exception {
        String authId = held();
        LoginBrowser.Page done = new LoginBrowser().logIn(page(authId), "sub-freya", FREYA);
        assertEquals(200, done.status(), done.body());
        assertTrue(done.body().contains("The SSH session starts now"), done.body());
        assertTrue(done.hops().get(1).getRawQuery().contains("prompt=login"), "a fresh login: " + done.hops());
        assertInstanceOf(SshChecks.Answer.Accept.class, verdict(authId));
        assertEquals(1, server.network.auditLog().recent("ssh.check.approve", 5).size());
    }

    @Test
    void aLoginByAnotherPersonRefusesTheSession() throws Exception {
        String authId = held();
        LoginBrowser.Page refused = new LoginBrowser().logIn(page(authId), "sub-loki", LOKI);
        assertEquals(403, refused.status(), refused.body());
        assertTrue(refused.body().contains("does not own"), refused.body());
        assertInstanceOf(SshChecks.Answer.Reject.class, verdict(authId));
        // Final: the owner can no longer pass this check.
        assertEquals(404, new LoginBrowser().open(page(authId)).status());
    }
}
