package io.meshcontrol.server.metrics;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.server.listener.ListenerLimits;
import io.meshcontrol.server.listener.PublicListener;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import org.xnio.OptionMap;

/**
 * The separate listener on {@code metrics_listen_addr}: Prometheus text format at {@code /metrics} for anyone, the
 * debug pages under {@code /debug/} for those {@link DebugAccess} lets in, with the same timeouts and per-address cap
 * as the main listener (it may be reachable from the network too).
 */
public final class MetricsListener implements AutoCloseable {

    private final PublicListener listener;

    private MetricsListener(PublicListener listener) {
        this.listener = listener;
    }

    /**
     * @param debugPages pages served beside {@code /metrics}, by exact path (a trailing slash is optional), e.g.
     *                   {@code /debug/derp-clients/}
     * @param debugAccess who may read them
     */
    public static MetricsListener start(HostPort address, ListenerLimits limits, PrometheusRegistry registry,
            Map<String, HttpHandler> debugPages, DebugAccess debugAccess) {
        PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
        HttpHandler pages = exchange -> {
            String path = exchange.getRequestPath();
            // Everything but /metrics is for debugging, also paths no page answers (no probing without access).
            if (!path.equals("/metrics") && !debugAccess.allows(exchange)) {
                DebugAccess.refuse(exchange);
                return;
            }
            HttpHandler page = debugPages.get(path.endsWith("/") ? path : path + "/");
            if (page != null) {
                if (exchange.isInIoThread()) {
                    exchange.dispatch(page);
                } else {
                    page.handleRequest(exchange);
                }
                return;
            }
            if (!path.equals("/metrics")) {
                exchange.setStatusCode(StatusCodes.NOT_FOUND);
                exchange.getResponseSender().send("not found; metrics are at /metrics\n");
                return;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                writer.write(out, registry.scrape());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, writer.getContentType());
            exchange.getResponseSender().send(ByteBuffer.wrap(out.toByteArray()));
        };
        return new MetricsListener(PublicListener.start(new PublicListener.Setup(address.host(), address.port(), null,
                pages, OptionMap.EMPTY, 1, limits)));
    }

    public InetSocketAddress address() {
        return listener.address();
    }

    @Override
    public void close() {
        listener.close();
    }
}
