package io.meshcontrol.server.http;

/**
 * What sets one API apart in the {@link RequestPipeline}: the shape of its errors and how its callers prove who they
 * are. Everything else (worker dispatch, metrics, error ids) is the same for every API.
 *
 * @param authentication how credentialed routes authenticate, or null for an API whose transport already did
 *                       ({@code /machine/*}: the Noise handshake proved the machine key)
 */
public record ApiStyle(ErrorFormat errors, Authentication authentication) {

    public ApiStyle {
        if (errors == null) {
            throw new IllegalArgumentException("an API needs an error format");
        }
    }
}
