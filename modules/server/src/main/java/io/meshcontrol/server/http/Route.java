package io.meshcontrol.server.http;

import io.undertow.server.HttpHandler;

/**
 * One served route. The list of these is the truth the OpenAPI document is checked against.
 *
 * <p>Most routes are API operations ({@code handler}): run on a virtual thread, answered as JSON or a problem. A few
 * protocol endpoints need the raw exchange ({@code exchangeHandler}), e.g. {@code /ts2021}, which switches protocols;
 * exactly one of the two is set.
 *
 * @param template Undertow path template, e.g. {@code /api/v1/user/{id}}
 * @param authenticated whether a credential is required
 */
public record Route(String method, String template, boolean authenticated, ApiHandler handler,
        HttpHandler exchangeHandler) {

    public Route {
        if ((handler == null) == (exchangeHandler == null)) {
            throw new IllegalArgumentException(method + " " + template + ": give either an API or an exchange handler");
        }
    }

    public Route(String method, String template, boolean authenticated, ApiHandler handler) {
        this(method, template, authenticated, handler, null);
    }
}
