package io.meshcontrol.server.metrics;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.derp.DerpSession;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code {metrics_listen_addr}/debug/derp-clients/}: the machines connected to the embedded relay, with remote
 * address, connection age, home flag (the client said this relay is its home) and traffic. Query parameters:
 * {@code address} (an IP), {@code prefix} (a CIDR), {@code key} (the start of a node key), {@code sort}
 * ({@code age}, {@code address}, {@code key}, {@code node}, {@code home}, {@code rx}, {@code tx}; a leading
 * {@code -} sorts descending), {@code format=json}.
 */
public final class DerpClientsPage implements HttpHandler {

    /**
     * One connected client.
     *
     * @param node the node's name in this network, or empty for a key it does not know
     * @param home whether the client said this relay is its home ({@code NotePreferred})
     * @param bytesReceived bytes from the client; {@code bytesSent} to it
     */
    public record Client(String key, String node, String address, Instant connectedAt, long ageSeconds, boolean home,
                         long bytesReceived, long bytesSent) {
    }

    private final Supplier<DerpServer> relay;
    private final Snapshots snapshots;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();

    /** @param relay the relay server, or null while it never ran */
    public DerpClientsPage(Supplier<DerpServer> relay, Snapshots snapshots, Clock clock) {
        this.relay = relay;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        List<Client> clients;
        try {
            clients = clients(exchange.getQueryParameters());
        } catch (IllegalArgumentException e) {
            exchange.setStatusCode(StatusCodes.BAD_REQUEST);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
            exchange.getResponseSender().send(e.getMessage() + "\n");
            return;
        }
        if ("json".equals(first(exchange.getQueryParameters(), "format"))) {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
            exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(clients)));
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/html; charset=utf-8");
        exchange.getResponseSender().send(html(clients));
    }

    List<Client> clients(Map<String, Deque<String>> query) {
        DerpServer server = relay.get();
        if (server == null) {
            return List.of();
        }
        String address = first(query, "address");
        IpPrefix prefix = Optional.ofNullable(first(query, "prefix")).map(DerpClientsPage::prefix).orElse(null);
        String key = first(query, "key");
        Instant now = clock.instant();
        var snapshot = snapshots.current();
        List<Client> clients = server.clients().stream()
                .filter(s -> s.clientKey() != null)
                .map(s -> new Client(s.clientKey().toText(),
                        snapshot.nodeByKey(s.clientKey()).map(Node::givenName).orElse(""),
                        ip(s.remoteAddress()), s.connectedAt(),
                        Duration.between(s.connectedAt(), now).toSeconds(), s.preferred(), s.bytesReceived(),
                        s.bytesSent()))
                .filter(c -> address == null || c.address().equals(address))
                .filter(c -> prefix == null || contains(prefix, c.address()))
                .filter(c -> key == null || c.key().startsWith(key) || c.key().startsWith("nodekey:" + key))
                .toList();
        return clients.stream().sorted(order(first(query, "sort"))).toList();
    }

    private static Comparator<Client> order(String sort) {
        String field = sort == null || sort.isBlank() ? "age" : sort;
        boolean descending = field.startsWith("-");
        Comparator<Client> by = switch (descending ? field.substring(1) : field) {
            case "age" -> Comparator.comparingLong(Client::ageSeconds);
            case "address" -> Comparator.comparing(Client::address);
            case "key" -> Comparator.comparing(Client::key);
            case "node" -> Comparator.comparing(Client::node);
            case "home" -> Comparator.comparing(Client::home);
            case "rx" -> Comparator.comparingLong(Client::bytesReceived);
            case "tx" -> Comparator.comparingLong(Client::bytesSent);
            default -> throw new IllegalArgumentException("sort must be one of age, address, key, node, home, rx, tx "
                    + "(with - for descending), got \"" + field + "\"");
        };
        by = by.thenComparing(Client::key);
        return descending ? by.reversed() : by;
    }

    private static IpPrefix prefix(String text) {
        try {
            return IpPrefix.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("prefix must be a CIDR such as 100.64.0.0/10, got \"" + text + "\"");
        }
    }

    private static boolean contains(IpPrefix prefix, String address) {
        IpAddress ip;
        try {
            ip = IpAddress.parse(address);
        } catch (IllegalArgumentException e) {
            return false;
        }
        byte[] a = ip.bytes();
        byte[] p = prefix.address().bytes();
        if (a.length != p.length) {
            return false;
        }
        int bits = prefix.bits();
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >> (i % 8);
            if ((a[i / 8] & mask) != (p[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    private static String ip(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }

    private static String first(Map<String, Deque<String>> query, String name) {
        Deque<String> values = query.get(name);
        return values == null || values.isEmpty() || values.getFirst().isEmpty() ? null : values.getFirst();
    }

    private static String html(List<Client> clients) {
        StringBuilder page = new StringBuilder("<!doctype html><meta charset=utf-8><title>DERP clients</title>"
                + "<h1>DERP clients of the embedded relay</h1><p>" + clients.size() + " connected. Filter with "
                + "<code>?address=</code>, <code>?prefix=</code>, <code>?key=</code>; <code>&amp;format=json</code> "
                + "for JSON.</p><table border=1 cellpadding=4><tr>");
        for (String[] column : new String[][] {{"key", "Node key"}, {"node", "Node"}, {"address", "Remote address"},
                {"age", "Connected for"}, {"home", "Home"}, {"rx", "Bytes in"}, {"tx", "Bytes out"}}) {
            page.append("<th><a href=\"?sort=").append(column[0]).append("\">").append(column[1])
                    .append("</a> <a href=\"?sort=-").append(column[0]).append("\">&darr;</a></th>");
        }
        page.append("</tr>");
        for (Client c : clients) {
            page.append("<tr><td><code>").append(escape(c.key())).append("</code></td><td>").append(escape(c.node()))
                    .append("</td><td>").append(escape(c.address())).append("</td><td>")
                    .append(Duration.ofSeconds(c.ageSeconds()).toString().substring(2).toLowerCase(Locale.ROOT))
                    .append("</td><td>").append(c.home() ? "yes" : "").append("</td><td>").append(c.bytesReceived())
                    .append("</td><td>").append(c.bytesSent()).append("</td></tr>");
        }
        return page.append("</table>").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
