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

    /** Issue 33: the document was looser than the server; these are bounds the server enforces. */
    @Test
    void theDocumentCarriesTheBoundsTheServerEnforces() {
        try (TestServer server = TestServer.start(folder)) {
            JsonNode doc = new YAMLMapper().readTree(server.request("GET", "/api/v1/openapi.yaml", null, null).body());
            JsonNode schemas = doc.get("components").get("schemas");
            JsonNode userName = schemas.get("UserRequest").get("properties").get("name");
            assertEquals(1, userName.get("minLength").asInt());
            assertEquals("^[A-Za-z0-9][A-Za-z0-9._@+-]{0,62}$", userName.get("pattern").asString());
            JsonNode nodeName = schemas.get("NodeRequest").get("properties").get("name");
            assertEquals("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$", nodeName.get("pattern").asString());
            assertEquals("^tag:[A-Za-z][A-Za-z0-9-]*$",
                    schemas.get("NodeRequest").get("properties").get("tags").get("items").get("pattern").asString());
            JsonNode scopes = schemas.get("OAuthClientRequest").get("properties").get("scopes");
            assertEquals(1, scopes.get("minItems").asInt(), "an OAuth client needs at least one scope");
            JsonNode regionId = schemas.get("DerpSettings").get("properties").get("relays").get("items")
                    .get("properties").get("regionId");
            assertEquals("integer", regionId.get("type").asString());
            assertEquals(2147483647L, regionId.get("maximum").asLong());
            JsonNode id = doc.get("paths").get("/api/v1/user/{id}").get("parameters").get(0).get("schema");
            assertEquals(19, id.get("maxLength").asInt(), "no id has more digits than the largest long");
            assertEquals("^(0|[1-9][0-9]*)$", id.get("pattern").asString());
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
