package io.meshcontrol.server.relay;

import io.meshcontrol.core.crypto.NaclBox;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A DERP client over a plain socket, as Tailscale's derphttp client talks to a relay over HTTP. */
public final class DerpSocketClient implements AutoCloseable {

    public final NodePrivateKey key;
    final Socket socket;
    final DataInputStream in;
    final OutputStream out;
    public final String responseHead;
    NodePublicKey serverKey;

    public record Frame(int type, byte[] payload) {
    }

    private DerpSocketClient(NodePrivateKey key, Socket socket, String responseHead) throws IOException {
        this.key = key;
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.responseHead = responseHead;
    }

    /** Sends the upgrade request and reads the response head, whatever it says. */
    public static DerpSocketClient upgrade(InetSocketAddress server, NodePrivateKey key, String upgradeHeader)
            throws IOException {
        Socket socket = new Socket();
        socket.connect(server, 5000);
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(("GET /derp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + (upgradeHeader == null ? "" : "Upgrade: " + upgradeHeader + "\r\nConnection: Upgrade\r\n")
                + "\r\n").getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        var raw = socket.getInputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = raw.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return new DerpSocketClient(key, socket, head.toString(StandardCharsets.US_ASCII));
    }

    /** Upgrade and handshake; fails unless the server answers ServerInfo. */
    public static DerpSocketClient connect(InetSocketAddress server, NodePrivateKey key) throws Exception {
        DerpSocketClient client = upgrade(server, key, "DERP");
        if (!client.responseHead.startsWith("HTTP/1.1 101")) {
            throw new IOException("no upgrade: " + client.responseHead);
        }
        client.readServerKey();
        client.sendClientInfo();
        Frame info = client.read();
        if (info.type() != 0x03) {
            throw new IOException("expected ServerInfo, got type " + info.type());
        }
        byte[] p = info.payload();
        NaclBox.open(Arrays.copyOfRange(p, 24, p.length), Arrays.copyOf(p, 24), client.serverKey.bytes(),
                key.bytes());
        return client;
    }

    public void readServerKey() throws IOException {
        Frame frame = read();
        if (frame.type() != 0x01) {
            throw new IOException("expected ServerKey, got " + frame.type());
        }
        serverKey = NodePublicKey.fromRaw(Arrays.copyOfRange(frame.payload(), 8, 40));
    }

    public void sendClientInfo() throws Exception {
        byte[] nonce = new byte[24];
        nonce[3] = 1;
        byte[] box = NaclBox.seal("{\"version\":2}".getBytes(StandardCharsets.UTF_8), nonce, serverKey.bytes(),
                key.bytes());
        send(0x02, key.publicKey().bytes(), nonce, box);
    }

    public void send(int type, byte[]... parts) throws IOException {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteBuffer frame = ByteBuffer.allocate(5 + length).put((byte) type).putInt(length);
        for (byte[] part : parts) {
            frame.put(part);
        }
        out.write(frame.array());
        out.flush();
    }

    /** The next frame other than a keep-alive. */
    public Frame read() throws IOException {
        while (true) {
            int type = in.readUnsignedByte();
            int length = in.readInt();
            byte[] payload = new byte[length];
            in.readFully(payload);
            if (type != 0x06) {
                return new Frame(type, payload);
            }
        }
    }

    /** Whether the server closed the connection (EOF or reset) within the socket timeout. */
    public boolean closedByServer() {
        try {
            while (true) {
                read();
            }
        } catch (EOFException e) {
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
