package io.meshcontrol.server.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The hand-written OpenAPI 3.1 document of {@code /api/v1}; ApiContractTest holds the server to it (docs/api.md).
 * The development endpoint {@code POST /api/v1/debug/node} has its own part, added only when the server serves it.
 */
public final class OpenApiDocument {

    private OpenApiDocument() {
    }

    /** The document without the development endpoint. */
    public static String text(String version) {
        return text(version, false);
    }

    /** @param debugNode whether the server serves {@code POST /api/v1/debug/node} ({@code debug.node_api_enabled}) */
    public static String text(String version, boolean debugNode) {
        String document = resource("openapi.yaml").replace("${version}", version);
        if (!debugNode) {
            return document;
        }
        // The part's paths go first under "paths:", at the indentation of the others.
        int paths = document.indexOf("\npaths:\n");
        if (paths < 0) {
            throw new IllegalStateException("openapi.yaml has no top-level paths");
        }
        int at = paths + "\npaths:\n".length();
        return document.substring(0, at) + resource("openapi-debug-node.yaml") + document.substring(at);
    }

    private static String resource(String name) {
        try (InputStream in = OpenApiDocument.class.getModule().getResourceAsStream("io/meshcontrol/server/docs/" + name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the server module");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
