package io.meshcontrol.server.metrics;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.netmap.AccessRules;
import io.meshcontrol.core.netmap.MapContents;
import io.meshcontrol.core.netmap.MapInputs;
import io.meshcontrol.core.netmap.MapSessions;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.PendingLogins;
import io.meshcontrol.core.wire.WireJson;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The debug pages of the metrics listener, under {@code /debug/}: an index, then one page per view of the running
 * server. Every page answers HTML, or JSON with {@code ?format=json}; {@link MetricsListener} lets only
 * {@link DebugAccess} through. Wire shapes (packet filters, SSH policies, the DERP map) are shown exactly as clients
 * get them.
 */
public final class DebugPages {

    /**
     * What the pages read.
     *
     * @param network the snapshot, pending logins, the policy, the route table and the map context (DNS, the DERP
     *                map) maps are built from now: the pages show the whole state
     * @param access the access rules map streams use (the same compilation, so the filter shown is the filter sent)
     */
    public record Sources(String version, Clock clock, Network network, MapSessions mapSessions,
                          AccessControl access) {
    }

    /** The runtime: version, uptime, heap, threads. */
    public record Runtime(String version, String javaVersion, Instant started, long uptimeSeconds, long heapUsedBytes,
                          long heapCommittedBytes, long heapMaxBytes, int threads, int daemonThreads, int peakThreads,
                          int processors) {
    }

    /**
     * A node with what map streaming knows of it.
     *
     * @param online whether the node is connected (it holds a map stream)
     * @param capVersion the capability version of its open map stream, 0 without one
     */
    public record ConnectedNode(long id, String name, String nodeKey, String ipv4, String ipv6, boolean online,
                                int capVersion, Instant lastSeen) {
    }

    /** Connected nodes and the machines waiting for a login. */
    public record Nodes(int total, int online, List<ConnectedNode> nodes, List<PendingLogins.Waiting> pendingRegistrations) {
    }

    /** The policy in force. */
    public record ActivePolicy(String source, String etag, String text) {
    }

    /** One node's packet filter and SSH policy, as its map carries them. */
    public record NodeFilters(long id, String name, JsonNode packetFilter, JsonNode sshPolicy) {
    }

    private record Page(String path, String title, String summary, Function<Map<String, Deque<String>>, Object> data) {
    }

    private final Sources sources;
    private final Instant started;
    private final JsonMapper json = JsonMapper.builder().build();
    private final List<Page> pages;

    public DebugPages(Sources sources) {
        this.sources = sources;
        this.started = sources.clock().instant();
        this.pages = List.of(
                new Page("/debug/runtime/", "Runtime", "version, uptime, heap, threads", q -> runtime()),
                new Page("/debug/nodes/", "Nodes", "connected nodes and pending registrations", q -> nodes()),
                new Page("/debug/policy/", "Policy", "the active policy", q -> policy()),
                new Page("/debug/filters/", "Filters", "each node's packet filter and SSH policy (?node=ID)",
                        this::filters),
                new Page("/debug/derp-map/", "DERP map", "the DERP map clients get",
                        q -> WireJson.mapper().valueToTree(sources.network().mapContext().current().derpMap())),
                new Page("/debug/map-sessions/", "Map streams", "open map streams and the change batcher",
                        q -> sources.mapSessions().status()));
    }

    /**
     * The pages by path, the index at {@code /debug/} included.
     *
     * @param others pages served elsewhere that the index links to (path to a one-line description), e.g.
     *               {@code /debug/derp-clients/}
     */
    public Map<String, HttpHandler> handlers(Map<String, String> others) {
        Map<String, HttpHandler> handlers = new LinkedHashMap<>();
        handlers.put("/debug/", exchange -> index(exchange, others));
        for (Page page : pages) {
            handlers.put(page.path(), exchange -> {
                Object data;
                try {
                    data = page.data().apply(exchange.getQueryParameters());
                } catch (IllegalArgumentException e) {
                    exchange.setStatusCode(StatusCodes.BAD_REQUEST);
                    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
                    exchange.getResponseSender().send(e.getMessage() + "\n");
                    return;
                }
                answer(exchange, page.title(), data);
            });
        }
        return handlers;
    }

    private void index(HttpServerExchange exchange, Map<String, String> others) {
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("runtime", runtime());
        Map<String, String> links = new LinkedHashMap<>();
        pages.forEach(page -> links.put(page.path(), page.summary()));
        links.putAll(new java.util.TreeMap<>(others));
        links.put("/metrics", "Prometheus metrics");
        if (wantsJson(exchange)) {
            index.put("pages", links);
            sendJson(exchange, index);
            return;
        }
        StringBuilder html = head("Debug");
        html.append("<ul>");
        links.forEach((path, summary) -> html.append("<li><a href=\"").append(escape(path)).append("\">")
                .append(escape(path)).append("</a>: ").append(escape(summary)).append("</li>"));
        html.append("</ul><h2>Runtime</h2>");
        render(json.valueToTree(index.get("runtime")), html);
        sendHtml(exchange, html);
    }

    Runtime runtime() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Instant now = sources.clock().instant();
        return new Runtime(sources.version(), System.getProperty("java.version"), started,
                Duration.between(started, now).toSeconds(), heap.getUsed(), heap.getCommitted(), heap.getMax(),
                threads.getThreadCount(), threads.getDaemonThreadCount(), threads.getPeakThreadCount(),
                java.lang.Runtime.getRuntime().availableProcessors());
    }

    Nodes nodes() {
        NetworkSnapshot snapshot = sources.network().snapshots().current();
        Map<Long, Integer> streams = new LinkedHashMap<>();
        sources.mapSessions().status().streams().forEach(s -> streams.put(s.nodeId(), s.capVersion()));
        List<ConnectedNode> nodes = snapshot.entriesInIdOrder().stream()
                .map(entry -> {
                    Node node = entry.node();
                    return new ConnectedNode(node.id(), node.givenName(), node.nodeKey().toText(), node.ipv4(),
                            node.ipv6(), entry.online(), streams.getOrDefault(node.id(), 0), node.lastSeen());
                })
                .toList();
        return new Nodes(nodes.size(), (int) nodes.stream().filter(ConnectedNode::online).count(), nodes,
                sources.network().pendingLogins().waiting());
    }

    ActivePolicy policy() {
        var policies = sources.network().policies();
        var file = policies.file();
        String source = file != null ? "file " + file : policies.isDefault() ? "default (allow all)" : "database";
        return new ActivePolicy(source, policies.etag(), policies.policy().text());
    }

    List<NodeFilters> filters(Map<String, Deque<String>> query) {
        NetworkSnapshot snapshot = sources.network().snapshots().current();
        AccessRules rules = sources.access().rules(snapshot);
        MapInputs in = new MapInputs(snapshot, rules, sources.network().routeElection().current(),
                sources.network().mapContext().current(), sources.clock().instant());
        String only = first(query, "node");
        Long id = null;
        if (only != null) {
            try {
                id = Long.parseLong(only);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("node must be a node id (a number), got \"" + only + "\"");
            }
        }
        Long wanted = id;
        return snapshot.entriesInIdOrder().stream()
                .map(NetworkSnapshot.NodeEntry::node)
                .filter(node -> wanted == null || node.id() == wanted)
                .map(node -> new NodeFilters(node.id(), node.givenName(),
                        WireJson.mapper().valueToTree(MapContents.packetFilter(node, in)),
                        WireJson.mapper().valueToTree(rules.sshPolicy(node))))
                .toList();
    }

    private void answer(HttpServerExchange exchange, String title, Object data) {
        if (wantsJson(exchange)) {
            sendJson(exchange, data);
            return;
        }
        StringBuilder html = head(title);
        html.append("<p><a href=\"/debug/\">index</a> &middot; <a href=\"?format=json")
                .append(exchange.getQueryString().isEmpty() ? "" : "&amp;" + escape(exchange.getQueryString()))
                .append("\">JSON</a></p>");
        render(json.valueToTree(data), html);
        sendHtml(exchange, html);
    }

    private static boolean wantsJson(HttpServerExchange exchange) {
        return "json".equals(first(exchange.getQueryParameters(), "format"));
    }

    private void sendJson(HttpServerExchange exchange, Object data) {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(ByteBuffer.wrap(json.writerWithDefaultPrettyPrinter().writeValueAsBytes(data)));
    }

    private static void sendHtml(HttpServerExchange exchange, StringBuilder html) {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/html; charset=utf-8");
        exchange.getResponseSender().send(html.toString());
    }

    private static StringBuilder head(String title) {
        return new StringBuilder("<!doctype html><meta charset=utf-8><title>").append(escape(title))
                .append("</title><style>table{border-collapse:collapse}td,th{border:1px solid #aaa;padding:2px 6px;"
                        + "vertical-align:top;text-align:left}pre{margin:0}</style><h1>").append(escape(title))
                .append("</h1>");
    }

    /**
     * Any JSON value as HTML: objects as two-column tables, lists of objects as one table with a column per field,
     * text with line breaks (a policy) as preformatted text.
     */
    static void render(JsonNode node, StringBuilder html) {
        if (node.isObject()) {
            html.append("<table>");
            for (var field : node.properties()) {
                html.append("<tr><th>").append(escape(field.getKey())).append("</th><td>");
                render(field.getValue(), html);
                html.append("</td></tr>");
            }
            html.append("</table>");
        } else if (node.isArray() && !node.isEmpty() && node.get(0).isObject()) {
            List<String> columns = new java.util.ArrayList<>();
            node.forEach(row -> row.propertyNames().forEach(name -> {
                if (!columns.contains(name)) {
                    columns.add(name);
                }
            }));
            html.append("<table><tr>");
            columns.forEach(c -> html.append("<th>").append(escape(c)).append("</th>"));
            html.append("</tr>");
            for (JsonNode row : node) {
                html.append("<tr>");
                for (String column : columns) {
                    html.append("<td>");
                    JsonNode value = row.get(column);
                    if (value != null) {
                        render(value, html);
                    }
                    html.append("</td>");
                }
                html.append("</tr>");
            }
            html.append("</table>");
        } else if (node.isArray()) {
            html.append(node.isEmpty() ? "&empty;" : "");
            for (JsonNode item : node) {
                render(item, html);
                html.append("<br>");
            }
        } else if (node.isString() && node.asString().contains("\n")) {
            html.append("<pre>").append(escape(node.asString())).append("</pre>");
        } else {
            html.append(escape(node.isString() ? node.asString() : node.toString()));
        }
    }

    private static String first(Map<String, Deque<String>> query, String name) {
        Deque<String> values = query.get(name);
        return values == null || values.isEmpty() || values.getFirst().isEmpty() ? null : values.getFirst();
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
