package io.meshcontrol.server.relay;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.relay.map.BootstrapDns;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /bootstrap-dns}: the addresses of every relay node and of this server, resolved in the background every
 * {@link #REFRESH} and whenever the map changes, and served from memory (resolving never blocks a request).
 * {@code ?q=name} narrows the answer to that name ({@code {}} when it is not one of them).
 */
public final class BootstrapDnsCache {

    /** The spec's refresh interval, as the vendor's derper refreshes its bootstrap names. */
    public static final Duration REFRESH = Duration.ofMinutes(10);

    private static final System.Logger LOG = System.getLogger(BootstrapDnsCache.class.getName());

    private final String serverHost;
    private final MapUrlFetcher.Resolver resolver;
    private final ScheduledExecutorService scheduler;
    private final JsonMapper json = JsonMapper.builder().build();
    private final AtomicReference<DERPMap> map = new AtomicReference<>(new DERPMap(null, Map.of(), false));
    private final AtomicReference<Map<String, List<String>>> answer = new AtomicReference<>(Map.of());

    public BootstrapDnsCache(String serverHost, MapUrlFetcher.Resolver resolver, ScheduledExecutorService scheduler) {
        this.serverHost = serverHost;
        this.resolver = resolver;
        this.scheduler = scheduler;
        scheduler.scheduleWithFixedDelay(this::refresh, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The map changed: resolve its names again, in the background. */
    public void mapChanged(DERPMap newMap) {
        map.set(newMap);
        scheduler.execute(this::refresh);
    }

    /** Resolves every name now. */
    public void refresh() {
        try {
            answer.set(BootstrapDns.resolve(map.get(), serverHost, resolver));
        } catch (RuntimeException e) { // keep the previous answer and the schedule
            LOG.log(System.Logger.Level.WARNING, "bootstrap DNS refresh failed: " + e);
        }
    }

    /** The current answer, for tests and the debug pages. */
    public Map<String, List<String>> current() {
        return answer.get();
    }

    void answer(HttpServerExchange exchange) {
        Map<String, List<String>> all = answer.get();
        Deque<String> q = exchange.getQueryParameters().get("q");
        Object body = all;
        if (q != null && !q.isEmpty() && !q.getFirst().isEmpty()) {
            String name = q.getFirst();
            body = all.containsKey(name) ? Map.of(name, all.get(name)) : Map.of();
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(body)));
    }
}
