package io.meshcontrol.server.relay;

import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.key.KeyFormatException;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.server.http.Routes;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /verify}: the admission controller an external derper asks (its {@code --verify-client-url}) before
 * it lets a client relay. Request {@code tailcfg.DERPAdmitClientRequest} ({@code {"NodePublic":"nodekey:…",
 * "Source":"ip"}}), answer {@code {"Allow":bool}}: allowed exactly when the node key belongs to a node of this
 * network, the same rule as the embedded relay's {@code verify_clients}. derper needs status 200 for any verdict and
 * reads at most 4 KiB of the answer.
 */
public final class VerifyRoute {

    /** A request is one key and an address; anything much larger is not one. */
    private static final int MAX_BODY = 4 << 10;

    private final Snapshots snapshots;
    private final JsonMapper json = JsonMapper.builder().build();

    public VerifyRoute(Snapshots snapshots) {
        this.snapshots = snapshots;
    }

    public void register(Routes routes) {
        routes.addExchange("POST", "/verify", this::verify);
    }

    private void verify(HttpServerExchange exchange) {
        if (exchange.getRequestContentLength() > MAX_BODY) {
            answer(exchange, StatusCodes.REQUEST_ENTITY_TOO_LARGE, "{\"error\":\"request too large\"}");
            return;
        }
        exchange.getRequestReceiver().receiveFullBytes((done, body) -> {
            NodePublicKey key;
            try {
                JsonNode request = json.readTree(body);
                key = NodePublicKey.parse(request.path("NodePublic").asString(""));
            } catch (JacksonException | KeyFormatException e) {
                answer(done, StatusCodes.BAD_REQUEST, "{\"error\":\"want {\\\"NodePublic\\\":\\\"nodekey:...\\\"}\"}");
                return;
            }
            boolean allow = snapshots.current().nodeByKey(key).isPresent();
            answer(done, StatusCodes.OK, "{\"Allow\":" + allow + "}");
        }, (done, error) -> answer(done, StatusCodes.BAD_REQUEST, "{\"error\":\"unreadable request\"}"));
    }

    private static void answer(HttpServerExchange exchange, int status, String body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(body, StandardCharsets.UTF_8);
    }
}
