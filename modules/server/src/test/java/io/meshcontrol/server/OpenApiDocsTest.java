package io.meshcontrol.server;

import io.meshcontrol.server.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The OpenAPI document and its documentation page as the server serves them (the contract: ApiContractTest). */
class OpenApiDocsTest {

    @TempDir
    Path folder;

    @Test
    void servedDocumentIsOpenApi31WithTheServerVersion() {
        try (TestServer server = TestServer.start(folder)) {
            var response = server.request("GET", "/api/v1/openapi.yaml", null, null);
            assertEquals(200, response.statusCode());
            JsonNode doc = new YAMLMapper().readTree(response.body());
            assertEquals("3.1.0", doc.get("openapi").asString());
            assertEquals(io.meshcontrol.core.BuildInfo.version(), doc.get("info").get("version").asString());
        }
    }

    @Test
    void documentationPageLoadsOnlyFromThisServer() {
        try (TestServer server = TestServer.start(folder)) {
            var page = server.request("GET", "/api/v1/docs", null, null);
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("swagger-ui-bundle.js"));
            assertTrue(!page.body().contains("http://") && !page.body().contains("https://"), "no external resources");
            for (String asset : new String[] {"swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js",
                    "swagger-initializer.js"}) {
                var response = server.request("GET", "/api/v1/docs/" + asset, null, null);
                assertEquals(200, response.statusCode(), asset);
                assertTrue(response.body().length() > 100, asset);
            }
            assertTrue(server.request("GET", "/api/v1/docs/swagger-initializer.js", null, null).body()
                    .contains("url: \"openapi.yaml\""));
            assertEquals(404, server.request("GET", "/api/v1/docs/pom.xml", null, null).statusCode());
        }
    }
}
