package io.meshcontrol.server.http;

/**
 * The two styles the main listener serves in: {@code /api/v2} (the vendor's API, whose clients parse its error shape
 * and send its credentials) and everything else ({@code /api/v1} and the public routes).
 */
public record ApiStyles(ApiStyle v1, ApiStyle v2) {

    public static final String V2_PREFIX = "/api/v2/";

    public ApiStyles {
        if (v1 == null || v2 == null) {
            throw new IllegalArgumentException("both API styles are needed");
        }
    }

    /** The style of a route template or a request path. */
    public ApiStyle forPath(String path) {
        return path.startsWith(V2_PREFIX) ? v2 : v1;
    }
}
