package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.MapFrames;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A DERP settings change reaches every open map stream as a delta carrying the new DERPMap. */
class DerpMapDeltaTest {

    @TempDir
    Path folder;

    @Test
    void everyConnectedNodeGetsTheNewMapAsADelta() throws Exception {
        try (TestServer server = TestServer.startWithRelay(folder, true)) {
            server.adminClient().createUser(new UserRequest("alice", null, null, null));
            String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                    "", null)).secret();
            List<StreamCapture> outputs = new ArrayList<>();
            List<Thread> streams = new ArrayList<>();
            for (String name : new String[] {"one", "two"}) {
                Node node = Machine.named(name).join(server.network, key);
                StreamCapture out = new StreamCapture();
                MapSession session = new MapSession(node.id(), 142, MapFrames.zstd(1), out.sink(), server.network,
                        server.server::mapContext, new AccessControl(server.network.policies()),
                        server.server.mapSessions().peerForms(), server.server.mapSessions().fullMaps(),
                        Duration.ofSeconds(50),
                        io.meshcontrol.server.metrics.MapMetrics.unregistered(), Clock.systemUTC());
                server.server.mapSessions().open(session);
                streams.add(Thread.ofVirtual().start(() -> {
                    try {
                        session.run(System.nanoTime());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
                outputs.add(out);
            }
            for (StreamCapture out : outputs) {
                out.await(messages -> !messages.isEmpty());
            }
            assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}").statusCode());
            for (StreamCapture out : outputs) {
                List<MapResponse> messages = out.await(m -> m.size() > 1 && m.getLast().derpMap() != null
                        && m.getLast().derpMap().regions().containsKey(900));
                MapResponse delta = messages.getLast();
                assertTrue(delta.node() == null || messages.indexOf(delta) > 0, "a delta, not a new stream");
                assertTrue(delta.derpMap().regions().containsKey(999), "the whole map: the embedded region too");
            }
            server.server.mapSessions().close();
            for (Thread stream : streams) {
                stream.join(10_000);
            }
        }
    }
}
