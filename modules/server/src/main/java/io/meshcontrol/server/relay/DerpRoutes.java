package io.meshcontrol.server.relay;

import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.derp.DerpSession;
import io.meshcontrol.server.http.Routes;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Protocols;
import io.undertow.util.StatusCodes;
import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.protocol.version13.Hybi13Handshake;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The relay's HTTP side on the server's own listener: {@code GET /derp} switches to the DERP byte stream, the
 * two probe paths clients and probers use to measure the relay answer 200, and {@code /bootstrap-dns} lists relay
 * addresses. While the relay is off they all answer 404, as on a server without a relay.
 */
public final class DerpRoutes {

    private static final HttpString DERP_VERSION = HttpString.tryFromString("Derp-Version");
    private static final HttpString DERP_PUBLIC_KEY = HttpString.tryFromString("Derp-Public-Key");
    private static final HttpString ALLOW_ORIGIN = HttpString.tryFromString("Access-Control-Allow-Origin");

    private final Supplier<DerpServer> relay;
    private final BootstrapDnsCache bootstrapDns;
    /** WebSocket with subprotocol "derp" only, no compression: DERP carries encrypted packets that do not compress. */
    private final WebSocketProtocolHandshakeHandler webSocket;

    /** @param relay the relay server while the relay is on, else null */
    public DerpRoutes(Supplier<DerpServer> relay, BootstrapDnsCache bootstrapDns) {
        this.relay = relay;
        this.bootstrapDns = bootstrapDns;
        WebSocketConnectionCallback connected = (exchange, channel) -> {
            DerpServer server = relay.get();
            if (server == null) {
                org.xnio.IoUtils.safeClose(channel);
                return;
            }
            WebSocketDerpTransport transport = new WebSocketDerpTransport(channel);
            transport.start(server.accept(transport));
        };
        this.webSocket = new WebSocketProtocolHandshakeHandler(List.of(new Hybi13Handshake(Set.of("derp"), false)),
                connected);
    }

    public void register(Routes routes) {
        endpoints().forEach((route, handler) -> routes.addExchange(route.method(), route.path(), handler));
    }

    /**
     * The same endpoints as one handler, for the relay's own TLS port, which serves nothing else: anything other than
     * them is answered 404.
     */
    public HttpHandler handler() {
        Map<Endpoint, HttpHandler> endpoints = endpoints();
        return exchange -> {
            HttpHandler handler = endpoints.get(new Endpoint(exchange.getRequestMethod().toString(),
                    exchange.getRequestPath()));
            if (handler == null) {
                exchange.setStatusCode(StatusCodes.NOT_FOUND);
                exchange.endExchange();
                return;
            }
            handler.handleRequest(exchange);
        };
    }

    private record Endpoint(String method, String path) { }

    private Map<Endpoint, HttpHandler> endpoints() {
        Map<Endpoint, HttpHandler> endpoints = new LinkedHashMap<>();
        endpoints.put(new Endpoint("GET", "/derp"), whileOn(this::upgrade));
        for (String path : new String[] {"/derp/probe", "/derp/latency-check"}) {
            endpoints.put(new Endpoint("GET", path), whileOn(DerpRoutes::probe));
            endpoints.put(new Endpoint("HEAD", path), whileOn(DerpRoutes::probe));
        }
        endpoints.put(new Endpoint("GET", "/bootstrap-dns"), whileOn(bootstrapDns::answer));
        return endpoints;
    }

    private HttpHandler whileOn(HttpHandler handler) {
        return exchange -> {
            if (relay.get() == null) {
                exchange.setStatusCode(StatusCodes.NOT_FOUND);
                exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
                exchange.getResponseSender().send("the embedded relay is off");
                return;
            }
            handler.handleRequest(exchange);
        };
    }

    /** Empty 200, readable from a browser page too (netcheck in the web client), as Tailscale's server answers. */
    private static void probe(HttpServerExchange exchange) {
        exchange.getResponseHeaders().put(ALLOW_ORIGIN, "*");
        exchange.setStatusCode(StatusCodes.OK);
        exchange.endExchange();
    }

    private void upgrade(HttpServerExchange exchange) throws Exception {
        String upgrade = exchange.getRequestHeaders().getFirst(Headers.UPGRADE);
        String protocols = exchange.getRequestHeaders().getFirst(Headers.SEC_WEB_SOCKET_PROTOCOL);
        // WebSocket is what browser clients use (and Go clients built for it); it must ask for the "derp" subprotocol.
        if (upgrade != null && upgrade.strip().equalsIgnoreCase("websocket") && protocols != null
                && protocols.toLowerCase(Locale.ROOT).contains("derp")) {
            webSocket.handleRequest(exchange);
            return;
        }
        if (upgrade == null || !upgrade.strip().toLowerCase(Locale.ROOT).equals("derp")
                || !exchange.getProtocol().equals(Protocols.HTTP_1_1)) {
            exchange.setPersistent(false);
            exchange.setStatusCode(StatusCodes.UPGRADE_REQUIRED);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
            exchange.getResponseSender().send("DERP requires connection upgrade");
            return;
        }
        // Tailscale's client checks only the status; the version and key headers are for people and other tools.
        exchange.getResponseHeaders().put(DERP_VERSION, "2");
        DerpServer server = relay.get();
        if (server == null) { // turned off since the check above
            exchange.setStatusCode(StatusCodes.NOT_FOUND);
            exchange.endExchange();
            return;
        }
        exchange.getResponseHeaders().put(DERP_PUBLIC_KEY, HexFormat.of().formatHex(server.publicKey().bytes()));
        exchange.upgradeChannel("DERP", (connection, upgraded) -> connection.getIoThread().execute(() -> {
            XnioDerpTransport transport = new XnioDerpTransport(connection);
            DerpSession session = server.accept(transport);
            transport.start(session);
        }));
        exchange.endExchange();
    }
}
