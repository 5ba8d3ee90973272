package io.meshcontrol.server.http;

import io.meshcontrol.core.auth.Caller;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;

/**
 * Authenticates the caller and attaches it to the exchange, with the address it came from for the audit log; a
 * refusal is thrown for the {@link ErrorStage}.
 */
final class AuthenticationStage implements HttpHandler {

    /** The authenticated caller, for the endpoint. */
    static final AttachmentKey<Caller> CALLER = AttachmentKey.create(Caller.class);

    private final Authentication authentication;
    private final HttpHandler next;

    AuthenticationStage(Authentication authentication, HttpHandler next) {
        this.authentication = authentication;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        exchange.putAttachment(CALLER, authentication.authenticate(exchange).from(ApiRequest.sourceOf(exchange)));
        next.handleRequest(exchange);
    }
}
