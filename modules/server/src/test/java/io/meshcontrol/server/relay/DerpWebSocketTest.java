package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.crypto.NaclBox;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.server.testing.TestServer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DERP over WebSocket (subprotocol "derp"), talking to a client on the plain upgrade. */
class DerpWebSocketTest {

    @TempDir
    Path folder;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Binary messages as one byte stream, the way Tailscale's WebSocket wrapper reads them. */
    static final class MessageStream extends InputStream implements WebSocket.Listener {
        private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
        private byte[] current = new byte[0];
        private int position;

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            chunks.add(bytes);
            ws.request(1);
            return null;
        }

        @Override
        public int read() throws IOException {
            while (position == current.length) {
                try {
                    current = chunks.poll(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                if (current == null) {
                    throw new IOException("nothing received");
                }
                position = 0;
            }
            return current[position++] & 0xff;
        }
    }

    private static byte[] frame(int type, byte[]... parts) {
        int length = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        ByteBuffer b = ByteBuffer.allocate(5 + length).put((byte) type).putInt(length);
        for (byte[] part : parts) {
            b.put(part);
        }
        return b.array();
    }

    private static DerpSocketClient.Frame read(DataInputStream in) throws IOException {
        while (true) {
            int type = in.readUnsignedByte();
            byte[] payload = new byte[in.readInt()];
            in.readFully(payload);
            if (type != 0x06) {
                return new DerpSocketClient.Frame(type, payload);
            }
        }
    }

    @Test
    void webSocketClientRelaysWithAPlainClient() throws Exception {
        server = TestServer.startWithRelay(folder, false);
        InetSocketAddress address = server.server.httpAddress();
        NodePrivateKey key = NodePrivateKey.generate();
        MessageStream stream = new MessageStream();
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("derp")
                .buildAsync(URI.create("ws://127.0.0.1:" + address.getPort() + "/derp"), stream)
                .get(10, TimeUnit.SECONDS);
        assertEquals("derp", ws.getSubprotocol());
        DataInputStream in = new DataInputStream(stream);

        DerpSocketClient.Frame serverKey = read(in);
        assertEquals(0x01, serverKey.type());
        NodePublicKey relayKey = NodePublicKey.fromRaw(Arrays.copyOfRange(serverKey.payload(), 8, 40));
        byte[] nonce = new byte[24];
        byte[] box = NaclBox.seal("{\"version\":2}".getBytes(StandardCharsets.UTF_8), nonce, relayKey.bytes(),
                key.bytes());
        byte[] clientInfo = frame(0x02, key.publicKey().bytes(), nonce, box);
        // Split across two messages: the stream, not the message, is what counts.
        ws.sendBinary(ByteBuffer.wrap(clientInfo, 0, 10), true).get(5, TimeUnit.SECONDS);
        ws.sendBinary(ByteBuffer.wrap(clientInfo, 10, clientInfo.length - 10), true).get(5, TimeUnit.SECONDS);
        assertEquals(0x03, read(in).type());

        try (DerpSocketClient plain = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            ws.sendBinary(ByteBuffer.wrap(frame(0x04, plain.key.publicKey().bytes(), new byte[] {7})), true)
                    .get(5, TimeUnit.SECONDS);
            DerpSocketClient.Frame got = plain.read();
            assertArrayEquals(key.publicKey().bytes(), Arrays.copyOf(got.payload(), 32));
            plain.send(0x04, key.publicKey().bytes(), new byte[] {8});
            DerpSocketClient.Frame back = read(in);
            assertEquals(0x05, back.type());
            assertEquals(8, back.payload()[32]);
        }
        ws.abort();
    }
}
