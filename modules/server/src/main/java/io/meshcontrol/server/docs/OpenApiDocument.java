package io.meshcontrol.server.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The hand-written OpenAPI 3.1 document of {@code /api/v1}; ApiContractTest holds the server to it (docs/api.md). */
public final class OpenApiDocument {

    private OpenApiDocument() {
    }

    public static String text(String version) {
        try (InputStream in = OpenApiDocument.class.getModule().getResourceAsStream("io/meshcontrol/server/docs/openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml is missing from the server module");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${version}", version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
