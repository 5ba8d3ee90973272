package io.meshcontrol.server.docs;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Routes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;

/**
 * {@code /api/v1/openapi.yaml} and the interactive documentation at {@code /api/v1/docs}, served entirely
 * from this server (Swagger UI from its webjar): the machines that run it may be offline.
 */
public final class DocsRoutes {

    private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
    /** The Swagger UI files the page loads; nothing else of the webjar is served. */
    private static final Map<String, String> ASSETS = Map.of(
            "swagger-ui.css", "text/css",
            "index.css", "text/css",
            "swagger-ui-bundle.js", "text/javascript",
            "swagger-ui-standalone-preset.js", "text/javascript",
            "favicon-32x32.png", "image/png",
            "favicon-16x16.png", "image/png");

    private final byte[] openApi;

    /** @param debugNode whether the document lists {@code POST /api/v1/debug/node} (served only then) */
    public DocsRoutes(String version, boolean debugNode) {
        this.openApi = OpenApiDocument.text(version, debugNode).getBytes(StandardCharsets.UTF_8);
    }

    public void register(Routes routes) {
        routes.addPublic("GET", "/api/v1/openapi.yaml",
                request -> Reply.ok(new RawBody("application/yaml; charset=utf-8", openApi)));
        routes.addPublic("GET", "/api/v1/docs",
                request -> Reply.ok(new RawBody("text/html; charset=utf-8", page().getBytes(StandardCharsets.UTF_8))));
        String base = WEBJAR + swaggerUiVersion() + "/";
        routes.addPublic("GET", "/api/v1/docs/{file}", request -> {
            String file = request.pathParam("file");
            if (file.equals("swagger-initializer.js")) {
                return Reply.ok(new RawBody("text/javascript", initializer().getBytes(StandardCharsets.UTF_8)));
            }
            String type = ASSETS.get(file);
            if (type == null) {
                throw MeshException.notFound("no documentation asset " + file);
            }
            return Reply.ok(new RawBody(type, resource(base + file)));
        });
    }

    /** Asset links are relative to {@code /api/v1/docs}, so the page also works behind a path prefix. */
    private static String page() {
        return """
                <!DOCTYPE html>
                <html lang="en">
                  <head>
                    <meta charset="UTF-8">
                    <title>Mesh Control API v1</title>
                    <link rel="stylesheet" type="text/css" href="docs/swagger-ui.css" />
                    <link rel="stylesheet" type="text/css" href="docs/index.css" />
                    <link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32" />
                  </head>
                  <body>
                    <div id="swagger-ui"></div>
                    <script src="docs/swagger-ui-bundle.js" charset="UTF-8"></script>
                    <script src="docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
                    <script src="docs/swagger-initializer.js" charset="UTF-8"></script>
                  </body>
                </html>
                """;
    }

    private static String initializer() {
        return """
                window.onload = function () {
                  window.ui = SwaggerUIBundle({
                    url: "openapi.yaml",
                    dom_id: "#swagger-ui",
                    deepLinking: true,
                    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
                    layout: "StandaloneLayout"
                  });
                };
                """;
    }

    private static String swaggerUiVersion() {
        Properties properties = new Properties();
        try (InputStream in = open("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    private static byte[] resource(String path) {
        try (InputStream in = open(path)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream open(String path) throws IOException {
        // META-INF is not a package, so the webjar's files are readable through the class loader on the
        // class path and the module path alike.
        InputStream in = DocsRoutes.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            throw new IOException("missing resource " + path + " (is the swagger-ui webjar on the path?)");
        }
        return in;
    }
}
