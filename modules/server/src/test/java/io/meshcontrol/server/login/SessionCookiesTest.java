package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.BrowserSessions;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionCookiesTest {

    @TempDir
    Path folder;

    @Test
    void onHttpsTheCookieIsSecureAndAlwaysHttpOnlyAndLax() {
        TestNetwork net = new TestNetwork(folder);
        User freya = net.user("freya", Role.MEMBER);
        BrowserSessions.Started started = net.network.browserSessions().start(freya);
        String secure = new SessionCookies(net.network.browserSessions(), "https://mesh.example.com")
                .sessionCookie(started, net.clock.instant());
        assertEquals("svc_session=" + started.secret() + "; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure",
                secure);
        String plain = new SessionCookies(net.network.browserSessions(), "http://127.0.0.1:8080")
                .sessionCookie(started, net.clock.instant());
        assertFalse(plain.contains("Secure"));
    }

    @Test
    void theCsrfCheckWantsTheSessionsTokenAndTheServersOrigin() {
        SameSiteCheck check = new SameSiteCheck("https://Mesh.example.com");
        String token = SessionCookies.csrfToken("secret");
        check.require(null, null, token, "secret");
        check.require("https://mesh.example.com", null, token, "secret");
        // the same server by another name: the Origin is the host the request went to
        check.require("http://localhost:8080", "localhost:8080", token, "secret");
        assertEquals(MeshException.Reason.FORBIDDEN, assertThrows(MeshException.class,
                () -> check.require("https://evil.example", "mesh.example.com", token, "secret")).reason());
        assertThrows(MeshException.class, () -> check.require(null, null, null, "secret"));
        assertThrows(MeshException.class, () -> check.require(null, null, SessionCookies.csrfToken("other"), "secret"));
    }

    @Test
    void cookiesAreFoundByNameInTheHeader() {
        assertEquals(Optional.of("abc"), SessionCookies.cookie("a=1; svc_session=abc; b=2", "svc_session"));
        assertEquals(Optional.empty(), SessionCookies.cookie("xsvc_session=abc", "svc_session"));
        assertEquals(Optional.empty(), SessionCookies.cookie(null, "svc_session"));
        assertTrue(SessionCookies.startedHere("svc_login_STATE=1", "STATE"));
        assertFalse(SessionCookies.startedHere("svc_login_OTHER=1", "STATE"));
    }
}
