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
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HexFormat;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

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
        return upgrade(socket, key, upgradeHeader);
    }

    private static DerpSocketClient upgrade(Socket socket, NodePrivateKey key, String upgradeHeader)
            throws IOException {
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
        return handshake(upgrade(server, key, "DERP"), key);
    }

    /**
     * The same over TLS, trusting exactly the certificate whose DER bytes hash to {@code pin} ({@code
     * sha256-raw:<hex>}), as Tailscale's client checks a pinned relay.
     */
    public static DerpSocketClient connectPinned(InetSocketAddress server, String hostName, String pin,
            NodePrivateKey key) throws Exception {
        X509TrustManager pinned = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                throw new CertificateException("a client only");
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                String hash;
                try {
                    hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded()));
                } catch (java.security.NoSuchAlgorithmException e) {
                    throw new CertificateException(e);
                }
                if (!pin.equals("sha256-raw:" + hash)) {
                    throw new CertificateException("certificate sha256-raw:" + hash + " is not the pinned " + pin);
                }
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {pinned}, null);
        Socket plain = new Socket();
        plain.connect(server, 5000);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, hostName, server.getPort(), true);
        tls.startHandshake();
        return handshake(upgrade(tls, key, "DERP"), key);
    }

    private static DerpSocketClient handshake(DerpSocketClient client, NodePrivateKey key) throws Exception {
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
