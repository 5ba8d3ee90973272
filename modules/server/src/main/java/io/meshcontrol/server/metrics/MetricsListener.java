package io.meshcontrol.server.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;

/** The separate listener on {@code metrics_listen_addr}: Prometheus text format at {@code /metrics}. */
public final class MetricsListener implements AutoCloseable {

    private final Undertow undertow;

    private MetricsListener(Undertow undertow) {
        this.undertow = undertow;
    }

    public static MetricsListener start(String host, int port, PrometheusRegistry registry) {
        return start(host, port, registry, Map.of());
    }

    /**
     * @param debugPages pages served beside {@code /metrics}, by exact path (a trailing slash is optional), e.g.
     *                   {@code /debug/derp-clients/}
     */
    public static MetricsListener start(String host, int port, PrometheusRegistry registry,
            Map<String, HttpHandler> debugPages) {
        PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
        Undertow undertow = Undertow.builder()
                .addHttpListener(port, host)
                .setIoThreads(1)
                .setWorkerThreads(2)
                .setHandler(exchange -> {
                    String path = exchange.getRequestPath();
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
                })
                .build();
        undertow.start();
        return new MetricsListener(undertow);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) undertow.getListenerInfo().getFirst().getAddress();
    }

    @Override
    public void close() {
        undertow.stop();
    }
}
