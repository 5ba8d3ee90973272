package io.meshcontrol.server.http;

import io.meshcontrol.core.auth.Caller;
import io.undertow.server.HttpServerExchange;

/** How an API learns who calls: from the request's credential. Runs on a worker thread, so it may block. */
@FunctionalInterface
public interface Authentication {

    /** @throws io.meshcontrol.core.MeshException unauthenticated, when the credential is missing or not valid */
    Caller authenticate(HttpServerExchange exchange);
}
