package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Where a login may send the browser back to: a path of this server, never another site. */
class ReturnPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"/admin/", "/admin/#/dns", "/admin/#/machines/12", "/admin/?tab=1", "/"})
    void aPathOfThisServerIsKept(String path) {
        assertEquals(Optional.of(new ReturnPath(path)), ReturnPath.of(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://evil.example/", "http://evil.example", "//evil.example", "//evil.example/admin/",
            "/\\evil.example", "\\\\evil.example", "/\\/evil.example", "javascript:alert(1)", "evil.example",
            "admin/", "", " /admin/", "/admin/\r\nSet-Cookie: x=1", "/admin/\t", "/adm\u00efn/", "/admin/ x",
            "///evil.example", "/admin/#/%", "/%"})
    void anythingABrowserCouldReadAsAnotherPlaceIsIgnored(String requested) {
        assertEquals(Optional.empty(), ReturnPath.of(requested), requested);
    }

    @Test
    void aNullOrOverlongRequestIsIgnored() {
        assertTrue(ReturnPath.of(null).isEmpty());
        assertTrue(ReturnPath.of("/" + "a".repeat(ReturnPath.MAX_LENGTH)).isEmpty());
    }

    @Test
    void theTargetIsThePathOnTheServerUrlAlsoBehindAProxysPathPrefix() {
        ReturnPath console = ReturnPath.of("/admin/#/dns").orElseThrow();
        assertEquals("http://127.0.0.1:8080/admin/#/dns", console.under("http://127.0.0.1:8080"));
        assertEquals("https://example.com/mesh/admin/#/dns", console.under("https://example.com/mesh/"));
    }
}
