package io.meshcontrol.server.http;

/**
 * One served route. The list of these is the truth the OpenAPI document is checked against.
 *
 * @param template Undertow path template, e.g. {@code /api/v1/user/{id}}
 * @param authenticated whether a credential is required
 */
public record Route(String method, String template, boolean authenticated, ApiHandler handler) {
}
