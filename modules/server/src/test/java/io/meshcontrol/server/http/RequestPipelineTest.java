package io.meshcontrol.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The request pipeline's stages in their order, on a listener of its own with an API style made up for the test: the
 * vendor's {@code {"message": ...}} error shape (what {@code /api/v2} will use) and a token header, plugged in
 * without any dispatch of its own.
 */
class RequestPipelineTest {

    /** Errors as the vendor's API writes them. */
    private static final ErrorFormat MESSAGE_JSON = new ErrorFormat() {
        @Override
        public void refuse(HttpServerExchange exchange, int status, String detail) {
            write(exchange, status, detail);
        }

        @Override
        public void fail(HttpServerExchange exchange, String errorId) {
            write(exchange, 500, "internal error " + errorId);
        }

        private void write(HttpServerExchange exchange, int status, String message) {
            exchange.setStatusCode(status);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
            exchange.getResponseSender().send("{\"message\":\"" + message + "\"}");
        }
    };

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final List<LoggedRequest> loggedRequests = new CopyOnWriteArrayList<>();
    private final Handler logCapture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getMessage());
            LoggedRequest.current().ifPresent(loggedRequests::add);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final HttpClient client = HttpClient.newHttpClient();
    private ExecutorService workers;
    private Undertow undertow;

    @BeforeEach
    void start() {
        Logger.getLogger("").addHandler(logCapture);
        workers = Executors.newVirtualThreadPerTaskExecutor();
        RequestPipeline pipeline = new RequestPipeline(new HttpMetrics(registry), workers);
        ApiStyle style = new ApiStyle(MESSAGE_JSON, exchange -> {
            seen.add("authentication on a virtual thread: " + Thread.currentThread().isVirtual());
            if (!"good".equals(exchange.getRequestHeaders().getFirst("X-Token"))) {
                throw MeshException.unauthenticated("no valid token");
            }
            return Caller.localAdmin();
        });
        RoutingHandler routing = pipeline.router(style);
        routing.add("GET", "/things/{id}", pipeline.blocking(style, "GET", "/things/{id}", true, exchange -> {
            seen.add("endpoint on a virtual thread: " + Thread.currentThread().isVirtual());
            seen.add("caller: " + exchange.getAttachment(AuthenticationStage.CALLER)
                    .equals(Caller.localAdmin().from("127.0.0.1")));
            exchange.getOutputStream().write("a thing".getBytes(StandardCharsets.UTF_8));
        }));
        routing.add("GET", "/missing", pipeline.blocking(style, "GET", "/missing", false, exchange -> {
            throw MeshException.notFound("no such thing");
        }));
        routing.add("GET", "/broken", pipeline.blocking(style, "GET", "/broken", false, exchange -> {
            exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, 1000);
            throw new IllegalStateException("broken on purpose");
        }));
        routing.add("GET", "/memory", pipeline.onIoThread(style, "GET", "/memory", exchange -> {
            seen.add("on the I/O thread: " + exchange.isInIoThread());
            exchange.getResponseSender().send("from memory");
        }));
        undertow = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(routing).build();
        undertow.start();
    }

    @AfterEach
    void stop() {
        undertow.stop();
        workers.shutdownNow();
        Logger.getLogger("").removeHandler(logCapture);
    }

    @Test
    void authenticationAndTheEndpointRunOnAVirtualThreadWithTheCaller() throws Exception {
        HttpResponse<String> thing = get("/things/7", "good");
        assertEquals(200, thing.statusCode());
        assertEquals("a thing", thing.body());
        assertEquals(List.of("authentication on a virtual thread: true", "endpoint on a virtual thread: true",
                "caller: true"), seen);
    }

    @Test
    void aRefusedCredentialNeverReachesTheEndpoint() throws Exception {
        HttpResponse<String> refused = get("/things/7", "bad");
        assertEquals(401, refused.statusCode());
        assertEquals("{\"message\":\"no valid token\"}", refused.body());
        assertEquals(List.of("authentication on a virtual thread: true"), seen);
    }

    @Test
    void metricsCountTheStatusTheLaterStagesAnswered() throws Exception {
        get("/things/7", "good");
        get("/things/8", "bad");
        get("/broken", null);
        get("/memory", null);
        String metrics = scrape();
        assertTrue(metrics.contains(counted("GET", "/things/{id}", 200)), metrics);
        assertTrue(metrics.contains(counted("GET", "/things/{id}", 401)), "the authentication stage's refusal");
        assertTrue(metrics.contains(counted("GET", "/broken", 500)), "the error stage's answer");
        assertTrue(metrics.contains(counted("GET", "/memory", 200)), "routes on the I/O thread too");
        assertTrue(metrics.contains("svc_http_request_duration_seconds_count{method=\"GET\",route=\"/things/{id}\"} 2"),
                metrics);
        assertEquals(List.of("authentication on a virtual thread: true", "endpoint on a virtual thread: true",
                "caller: true", "authentication on a virtual thread: true", "on the I/O thread: true"), seen);
    }

    @Test
    void errorsAreInTheApisOwnShapeAndA500sIdIsInTheLog() throws Exception {
        HttpResponse<String> missing = get("/missing", null);
        assertEquals(404, missing.statusCode());
        assertEquals("{\"message\":\"no such thing\"}", missing.body());

        HttpResponse<String> broken = get("/broken", null);
        assertEquals(500, broken.statusCode());
        Matcher id = Pattern.compile("\\{\"message\":\"internal error ([a-z0-9]{12})\"}").matcher(broken.body());
        assertTrue(id.matches(), broken.body());
        assertEquals(broken.body().length(), broken.headers().firstValueAsLong("Content-Length").orElse(-1),
                "the length the endpoint set is not the error's");
        assertTrue(logged.stream().anyMatch(line -> line.startsWith("error id " + id.group(1) + ": GET /broken from ")),
                logged.toString());
    }

    @Test
    void theLogLineOfA500CarriesItsRequestAndErrorIdAsFields() throws Exception {
        HttpResponse<String> broken = get("/broken", null);
        Matcher id = Pattern.compile("\\{\"message\":\"internal error ([a-z0-9]{12})\"}").matcher(broken.body());
        assertTrue(id.matches(), broken.body());
        assertEquals(1, loggedRequests.size(), loggedRequests.toString());
        LoggedRequest request = loggedRequests.getFirst();
        assertEquals(List.of("GET", "/broken", "/broken", id.group(1)),
                List.of(request.method(), request.route(), request.path(), request.errorId()));
        assertTrue(request.client().startsWith("/127.0.0.1:"), request.client());
        assertTrue(LoggedRequest.current().isEmpty(), "no request outside the pipeline");
    }

    @Test
    void requestsNoRouteAnswersAreCountedWithoutTheirPath() throws Exception {
        HttpResponse<String> unknown = get("/nothing/mkey:secret", null);
        assertEquals(404, unknown.statusCode());
        assertEquals("{\"message\":\"no such endpoint: /nothing/mkey:secret\"}", unknown.body());
        HttpResponse<String> wrongMethod = send(HttpRequest.newBuilder(uri("/memory"))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(405, wrongMethod.statusCode());
        assertEquals("{\"message\":\"POST is not supported on /memory\"}", wrongMethod.body());
        send(HttpRequest.newBuilder(uri("/nothing")).method("BREW", HttpRequest.BodyPublishers.noBody()).build());
        String metrics = scrape();
        assertTrue(metrics.contains(counted("GET", RequestPipeline.UNMATCHED, 404)), metrics);
        assertTrue(metrics.contains(counted("POST", RequestPipeline.UNMATCHED, 405)), metrics);
        assertTrue(metrics.contains(counted("other", RequestPipeline.UNMATCHED, 404)), "a made-up method is no label");
        assertFalse(metrics.contains("secret"), metrics);
    }

    private static String counted(String method, String route, int status) {
        return "svc_http_requests_total{method=\"" + method + "\",route=\"" + route + "\",status=\"" + status + "\"} 1";
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
        if (token != null) {
            request.header("X-Token", token);
        }
        return send(request.build());
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        int port = ((InetSocketAddress) undertow.getListenerInfo().getFirst().getAddress()).getPort();
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }
}
