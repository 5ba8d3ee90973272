package io.meshcontrol.server.metrics;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Snapshots;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code {metrics_listen_addr}/debug/routes}: who serves each subnet route now, the tailnet-wide primary beside the
 * primary of each DERP region that has one (regional routing), and the global exit nodes. {@code ?format=json} answers
 * the same as JSON.
 */
public final class RoutesPage implements HttpHandler {

    /** A router as the page names it. */
    public record Router(long id, String name) {
    }

    /**
     * One subnet route.
     *
     * @param primary the tailnet-wide primary, or null when no healthy router has it
     * @param regions home DERP region to its own primary, for a route whose routers are in several regions
     * @param routers every router with the route active, by id
     */
    public record Route(String prefix, Router primary, Map<Integer, Router> regions, List<Router> routers) {
    }

    /** A global exit node and the priority of its mark. */
    public record ExitNode(long id, String name, int priority) {
    }

    /** The whole page. */
    public record Report(List<Route> routes, List<ExitNode> globalExitNodes) {
    }

    private final RouteElection election;
    private final Snapshots snapshots;
    private final JsonMapper json = JsonMapper.builder().build();

    public RoutesPage(RouteElection election, Snapshots snapshots) {
        this.election = election;
        this.snapshots = snapshots;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        Report report = report();
        Deque<String> format = exchange.getQueryParameters().get("format");
        if (format != null && "json".equals(format.peekFirst())) {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
            exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(report)));
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/html; charset=utf-8");
        exchange.getResponseSender().send(html(report));
    }

    Report report() {
        RouteTable table = election.current();
        NetworkSnapshot snapshot = snapshots.current();
        Map<IpPrefix, List<Router>> routers = new TreeMap<>(RoutePrefixes.ORDER);
        snapshot.entriesInIdOrder().stream().map(NetworkSnapshot.NodeEntry::node).filter(RouteTable::isSubnetRouter)
                .forEach(node -> node.activeRoutes().stream().filter(p -> !RoutePrefixes.isExit(p))
                        .forEach(p -> routers.computeIfAbsent(p, k -> new ArrayList<>()).add(router(node))));
        List<Route> routes = new ArrayList<>();
        routers.forEach((prefix, members) -> {
            Map<Integer, Router> regions = new TreeMap<>();
            table.regionalPrimaries().getOrDefault(prefix, Map.of())
                    .forEach((region, id) -> regions.put(region, router(snapshot, id)));
            Long primary = table.primaries().get(prefix);
            routes.add(new Route(prefix.toString(), primary == null ? null : router(snapshot, primary), regions,
                    members));
        });
        List<ExitNode> exits = new ArrayList<>();
        table.exits().marked().forEach((id, priority) -> exits.add(new ExitNode(id,
                snapshot.node(id).map(Node::givenName).orElse(""), priority)));
        exits.sort(java.util.Comparator.comparingLong(ExitNode::id));
        return new Report(routes, exits);
    }

    private static Router router(Node node) {
        return new Router(node.id(), node.givenName());
    }

    private static Router router(NetworkSnapshot snapshot, long id) {
        return new Router(id, snapshot.node(id).map(Node::givenName).orElse(""));
    }

    private static String html(Report report) {
        StringBuilder page = new StringBuilder("<!doctype html><meta charset=utf-8><title>Routes</title>"
                + "<h1>Subnet routes</h1><p>The tailnet-wide primary serves clients without a home region or whose "
                + "region has no router of the route; <code>?format=json</code> for JSON.</p>"
                + "<table border=1 cellpadding=4><tr><th>Route</th><th>Tailnet-wide primary</th>"
                + "<th>Regional primaries</th><th>Routers</th></tr>");
        for (Route route : report.routes()) {
            page.append("<tr><td><code>").append(route.prefix()).append("</code></td><td>")
                    .append(route.primary() == null ? "none healthy" : name(route.primary())).append("</td><td>");
            route.regions().forEach((region, router) -> page.append("region ").append(region).append(": ")
                    .append(name(router)).append("<br>"));
            page.append("</td><td>");
            route.routers().forEach(router -> page.append(name(router)).append("<br>"));
            page.append("</td></tr>");
        }
        page.append("</table><h1>Global exit nodes</h1>");
        if (report.globalExitNodes().isEmpty()) {
            page.append("<p>None marked: every approved exit node is suggested.</p>");
        } else {
            page.append("<table border=1 cellpadding=4><tr><th>Node</th><th>Priority</th></tr>");
            for (ExitNode exit : report.globalExitNodes()) {
                page.append("<tr><td>").append(escape(exit.name())).append(" (").append(exit.id()).append(")</td><td>")
                        .append(exit.priority()).append("</td></tr>");
            }
            page.append("</table>");
        }
        return page.toString();
    }

    private static String name(Router router) {
        return escape(router.name()) + " (" + router.id() + ")";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
