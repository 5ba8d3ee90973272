package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code branding.*}: the product name and logo on the pages people see. */
class BrandingTest {

    /** The smallest PNG there is: one transparent pixel. */
    private static final byte[] PIXEL = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=");

    @TempDir
    Path folder;

    @Test
    void theExpiredLoginPageCarriesTheNameAndTheLogo() throws Exception {
        Path logo = Files.write(folder.resolve("logo.png"), PIXEL);
        try (TestServer server = TestServer.in(folder).set("branding.title", "Acme <Mesh>")
                .set("branding.logo_path", logo.toString()).start()) {
            String page = server.request("GET", "/register/lapsed", null, null).body();
            assertTrue(page.contains("<title>Acme &lt;Mesh&gt;: This login link expired</title>"), page);
            assertTrue(page.contains("<strong>Acme &lt;Mesh&gt;</strong>"), page);
            assertTrue(page.contains("src=\"data:image/png;base64," + Base64.getEncoder().encodeToString(PIXEL) + "\""),
                    page);
            assertTrue(page.contains("href=\"../admin/console.css\""), page);
        }
    }

    @Test
    void theConsoleIsToldTheNameAndTheLogoBeforeSignIn() throws Exception {
        Path logo = Files.write(folder.resolve("logo.png"), PIXEL);
        try (TestServer server = TestServer.in(folder).set("branding.title", "Acme Mesh")
                .set("branding.logo_path", logo.toString()).start()) {
            String session = server.request("GET", "/admin/session", null, null).body();
            assertTrue(session.contains("\"signedIn\":false"), session);
            assertTrue(session.contains("\"brand\":\"Acme Mesh\""), session);
            assertTrue(session.contains("\"logo\":\"data:image/png;base64,"
                    + Base64.getEncoder().encodeToString(PIXEL) + "\""), session);
        }
        try (TestServer server = TestServer.start(folder.resolve("plain"))) {
            String session = server.request("GET", "/admin/session", null, null).body();
            assertTrue(session.contains("\"brand\":\"Mesh Control\""), session);
            assertFalse(session.contains("\"logo\":\"data:"), session);
        }
    }

    @Test
    void withoutSettingsThePagesSayMeshControlAndShowNoImage() {
        try (TestServer server = TestServer.start(folder)) {
            String page = server.request("GET", "/register/lapsed", null, null).body();
            assertTrue(page.contains("<title>Mesh Control: "), page);
            assertFalse(page.contains("<img"), page);
        }
    }

    @Test
    void aLogoThePagesCannotShowStopsTheStart() throws Exception {
        Path text = Files.writeString(folder.resolve("logo.txt"), "not an image");
        assertEquals("branding.logo_path: " + text + " must be a .png, .svg, .jpg, .gif or .webp image",
                assertThrows(IllegalArgumentException.class, () -> Branding.of("x", Optional.of(text))).getMessage());
        Path big = Files.write(folder.resolve("big.png"), new byte[Branding.MAX_LOGO_BYTES + 1]);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Branding.of("x", Optional.of(big))).getMessage()
                .endsWith("is larger than 256 KiB"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Branding.of("x",
                Optional.of(folder.resolve("missing.png")))).getMessage().startsWith("branding.logo_path: cannot read"));
    }

    @Test
    void theLoginPagesAreBrandedToo() {
        var body = (io.meshcontrol.server.http.RawBody) new LoginPages(new Branding("Acme", null))
                .page(200, "Logged in", "Welcome").body();
        String page = new String(body.bytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(page.contains("<title>Acme: Logged in</title>") && page.contains("<p>Welcome</p>"), page);
    }
}
