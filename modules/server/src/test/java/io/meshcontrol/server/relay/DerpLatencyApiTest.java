package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/v1/derp/latency} from the nodes' reported NetInfo. */
class DerpLatencyApiTest {

    @TempDir
    Path folder;

    @Test
    void reportsPerRegionFromTheNodesNetInfo() {
        try (TestServer server = TestServer.startWithRelay(folder, true)) {
            assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}").statusCode());
            server.adminClient().createUser(new UserRequest("alice", null, null, null));
            String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                    "", null)).secret();
            String[] hostinfos = {
                "{\"NetInfo\":{\"PreferredDERP\":999,\"DERPLatency\":{\"999-v4\":0.010,\"900-v4\":0.050}}}",
                "{\"NetInfo\":{\"PreferredDERP\":999,\"DERPLatency\":{\"999-v4\":0.030}}}",
                "{}"};
            for (int i = 0; i < hostinfos.length; i++) {
                Machine.named("n" + i).hostinfo(hostinfos[i]).join(server.network, key);
            }
            String reader = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("devices:core:read"),
                    "reader", null)).secret();
            DerpLatencyReport report = server.client(reader).derpLatency();
            assertEquals(List.of(900, 999), report.regions().stream().map(DerpLatencyReport.Region::regionId).toList());
            DerpLatencyReport.Region svc = report.regions().get(1);
            assertEquals(2, svc.preferredBy());
            assertEquals(2, svc.reporting());
            assertEquals(20.0, svc.medianMs(), 1e-9);
            assertEquals(30.0, svc.p90Ms(), 1e-9);
            DerpLatencyReport.Region home = report.regions().get(0);
            assertEquals(0, home.preferredBy());
            assertEquals(1, home.reporting());

            assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"relays\":[{\"regionId\":901,\"code\":\"new\",\"host\":\"new.example.com\"}]}").statusCode());
            HttpResponse<String> raw = server.request("GET", "/api/v1/derp/latency", reader, null);
            assertTrue(raw.body().contains("{\"regionId\":901,\"code\":\"new\",\"name\":\"new\",\"preferredBy\":0,"
                    + "\"reporting\":0,\"medianMs\":null,\"p90Ms\":null}"), "no data is written as null: " + raw.body());
            assertEquals(List.of(901, 999), server.client(reader).derpLatency().regions().stream()
                    .map(DerpLatencyReport.Region::regionId).toList(), "region 900 is gone, though a node measured it");
        }
    }
}
