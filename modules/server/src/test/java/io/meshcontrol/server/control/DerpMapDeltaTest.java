package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.wire.MapFrameReader;
import io.meshcontrol.core.wire.MapFrames;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.server.ServerSettings;
import io.meshcontrol.server.testing.TestServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A DERP settings change reaches every open map stream as a delta carrying the new DERPMap. */
class DerpMapDeltaTest {

    @TempDir
    Path folder;

    @Test
    void everyConnectedNodeGetsTheNewMapAsADelta() throws Exception {
        try (TestServer server = TestServer.start(folder, TestServer.testRelay(folder, true),
                ServerSettings.DerpMaps.NONE)) {
            server.adminClient().createUser(new UserRequest("alice", null, null, null));
            String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                    "", null)).secret();
            List<ByteArrayOutputStream> outputs = new ArrayList<>();
            List<Thread> streams = new ArrayList<>();
            for (String name : new String[] {"one", "two"}) {
                Node node = server.network.registrations().withAuthKey(new Registrations.Request(
                        MachinePrivateKey.generate().publicKey(), NodePrivateKey.generate().publicKey(), name, "{}"),
                        key).node();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                MapSession session = new MapSession(node.id(), 142, MapFrames.zstd(1), locked(out), server.network,
                        server.server::mapContext, new AccessControl(server.network.policies()),
                        server.server.mapSessions().peerForms(), Duration.ofSeconds(50),
                        Clock.systemUTC());
                server.server.mapSessions().open(session);
                streams.add(Thread.ofVirtual().start(() -> {
                    try {
                        session.run();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
                outputs.add(out);
            }
            for (ByteArrayOutputStream out : outputs) {
                await(out, messages -> !messages.isEmpty());
            }
            assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}").statusCode());
            for (ByteArrayOutputStream out : outputs) {
                List<MapResponse> messages = await(out, m -> m.size() > 1 && m.getLast().derpMap() != null
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

    private static List<MapResponse> await(ByteArrayOutputStream out, Predicate<List<MapResponse>> condition)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            byte[] written;
            synchronized (out) {
                written = out.toByteArray();
            }
            List<MapResponse> messages = read(written);
            if (condition.test(messages)) {
                return messages;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the stream did not deliver the expected messages within 20 s");
    }

    private static List<MapResponse> read(byte[] written) throws Exception {
        MapFrameReader reader = new MapFrameReader(new ByteArrayInputStream(written), true);
        List<MapResponse> messages = new ArrayList<>();
        try {
            for (MapResponse message = reader.next(); message != null; message = reader.next()) {
                messages.add(message);
            }
        } catch (java.io.EOFException partialFrame) {
            // the last frame is not complete yet
        }
        return messages;
    }

    private static OutputStream locked(ByteArrayOutputStream target) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (target) {
                    target.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (target) {
                    target.write(b, off, len);
                }
            }
        };
    }
}
