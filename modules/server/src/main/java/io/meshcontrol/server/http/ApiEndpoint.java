package io.meshcontrol.server.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The end of the {@link RequestPipeline} for an API operation: runs its {@link ApiHandler} with the caller the
 * authentication stage found and writes the {@link Reply}. What the handler throws is the error stage's to answer.
 */
final class ApiEndpoint implements HttpHandler {

    private final ApiHandler handler;
    private final JsonMapper json;

    ApiEndpoint(ApiHandler handler, JsonMapper json) {
        this.handler = handler;
        this.json = json;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        Reply reply = handler.handle(new ApiRequest(exchange, exchange.getAttachment(AuthenticationStage.CALLER), json));
        if (reply == Reply.streamed()) {
            return;
        }
        exchange.setStatusCode(reply.status());
        for (Map.Entry<String, String> header : reply.headers().entrySet()) {
            HttpString name = HttpString.tryFromString(header.getKey());
            if (Headers.SET_COOKIE.equals(name)) {
                // Cookies add up: a handler may have set (or cleared) another one on the exchange already.
                exchange.getResponseHeaders().add(name, header.getValue());
            } else {
                exchange.getResponseHeaders().put(name, header.getValue());
            }
        }
        if (reply.body() == null) {
            return; // the worker stage ends the exchange
        }
        if (reply.body() instanceof RawBody raw) {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, raw.contentType());
            exchange.getResponseSender().send(Compression.body(exchange, raw.bytes()));
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(Compression.body(exchange, json.writeValueAsBytes(reply.body())));
    }
}
