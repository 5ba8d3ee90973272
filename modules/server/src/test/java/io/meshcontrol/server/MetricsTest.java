package io.meshcontrol.server;

import io.meshcontrol.server.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsTest {

    @TempDir
    Path folder;

    @Test
    void requestCountsAndLatenciesAreExportedPerRoute() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            server.request("GET", "/version", null, null);
            server.request("GET", "/api/v1/user", null, null);
            HttpResponse<String> metrics = server.scrapeMetrics();
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("svc_http_requests_total{method=\"GET\",route=\"/version\",status=\"200\"} 1"),
                    metrics.body());
            assertTrue(metrics.body().contains("svc_http_requests_total{method=\"GET\",route=\"/api/v1/user\",status=\"401\"} 1"));
            assertTrue(metrics.body().contains("svc_http_request_duration_seconds_bucket{method=\"GET\",route=\"/version\""));
        }
    }
}
