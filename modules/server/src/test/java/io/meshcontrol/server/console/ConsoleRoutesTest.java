package io.meshcontrol.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's files: where they are served, the Content-Security-Policy, relative URLs only. */
class ConsoleRoutesTest {

    @TempDir
    static Path folder;
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(folder);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void adminLeadsToTheConsoleByARelativeRedirect() {
        HttpResponse<String> answer = server.request("GET", "/admin", null, null);
        assertEquals(302, answer.statusCode());
        assertEquals("admin/", answer.headers().firstValue("Location").orElseThrow(),
                "relative, so that it also works behind a path prefix");
    }

    @Test
    void thePageHasAStrictContentSecurityPolicyAndNoInlineScript() {
        HttpResponse<String> page = server.request("GET", "/admin/", null, null);
        assertEquals(200, page.statusCode());
        String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertTrue(policy.contains("default-src 'none'"), policy);
        assertTrue(policy.contains("script-src 'self';"), policy);
        assertFalse(policy.contains("unsafe"), policy);
        assertTrue(policy.contains("frame-ancestors 'none'"), policy);
        assertEquals("nosniff", page.headers().firstValue("X-Content-Type-Options").orElseThrow());
        assertFalse(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(page.body()).find(), "no inline script");
    }

    @Test
    void everyUrlThePageAndItsModulesUseIsRelativeAndServed() {
        String page = server.request("GET", "/admin/", null, null).body();
        Matcher links = Pattern.compile("(?:href|src)=\"([^\"]+)\"").matcher(page);
        int count = 0;
        while (links.find()) {
            String link = links.group(1);
            assertFalse(link.startsWith("/") || link.contains("://"), "relative: " + link);
            assertEquals(200, server.request("GET", "/admin/" + link, null, null).statusCode(), link);
            count++;
        }
        assertTrue(count >= 3, "stylesheet, icon, script");
        HttpResponse<String> app = server.request("GET", "/admin/app.js", null, null);
        assertTrue(app.headers().firstValue("Content-Type").orElseThrow().startsWith("text/javascript"));
        Matcher imports = Pattern.compile("from '([^']+)'").matcher(app.body());
        while (imports.find()) {
            String module = imports.group(1);
            assertTrue(module.startsWith("./"), "relative import: " + module);
            assertEquals(200, server.request("GET", "/admin/" + module.substring(2), null, null).statusCode(), module);
        }
        assertTrue(server.request("GET", "/admin/vendor/preact-htm.js", null, null).body().contains("useState"));
    }

    @Test
    void onlyConsoleFilesAreServed() {
        assertEquals(404, server.request("GET", "/admin/module-info.class", null, null).statusCode());
        assertEquals(404, server.request("GET", "/admin/ConsoleRoutes.class", null, null).statusCode());
        assertEquals(404, server.request("GET", "/admin/nothing.js", null, null).statusCode());
        assertEquals(404, server.request("GET", "/admin/..%2Fdocs%2Fopenapi.yaml", null, null).statusCode());
    }
}
