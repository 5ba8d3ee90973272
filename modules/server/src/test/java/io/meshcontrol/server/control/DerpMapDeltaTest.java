package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.MapSession;
import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MapStreamCapture;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
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
            List<MapStreamCapture> outputs = new ArrayList<>();
            List<Thread> streams = new ArrayList<>();
            for (String name : new String[] {"one", "two"}) {
                Node node = Machine.named(name).join(server.network, key);
                MapStreamCapture out = new MapStreamCapture();
                MapSession session = server.server.mapSessions().open(node.id(), 142, MapFrames.zstd(1), out.sink());
                streams.add(Thread.ofVirtual().start(() -> {
                    try {
                        session.run(System.nanoTime());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
                outputs.add(out);
            }
            for (MapStreamCapture out : outputs) {
                out.await(messages -> !messages.isEmpty());
            }
            assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}").statusCode());
            for (MapStreamCapture out : outputs) {
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
