package io.meshcontrol.server.control;

import io.meshcontrol.core.crypto.EarlyPayload;
import io.meshcontrol.core.crypto.NoiseFrames;
import io.meshcontrol.core.crypto.NoiseInitiator;
import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.crypto.NoiseTransport;
import io.meshcontrol.core.crypto.RecordDecoder;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A ts2021 client on a plain socket, for tests that need to see or break every byte: it sends the upgrade request,
 * reads the 101, finishes the Noise handshake with {@link NoiseInitiator}, reads the early payload, and then reads and
 * writes plaintext through records. One reader thread and any number of writers (writes are serialised).
 */
final class NoiseTestClient implements AutoCloseable {

    /** What a {@code /ts2021} request got back before any Noise byte. */
    record HttpHead(int status, Map<String, String> headers) {
    }

    final Socket socket;
    final MachinePrivateKey machineKey;
    final HttpHead head;
    final NoiseTransport transport;
    /** The early payload's JSON, or null when the server sent none. */
    private String earlyPayload;
    private final InputStream in;
    private final OutputStream out;
    private final RecordDecoder decoder;
    private final ArrayDeque<ByteBuffer> plaintext = new ArrayDeque<>();
    private final byte[] readBuffer = new byte[8192];

    private NoiseTestClient(Socket socket, MachinePrivateKey machineKey, HttpHead head, NoiseTransport transport)
            throws IOException {
        this.socket = socket;
        this.machineKey = machineKey;
        this.head = head;
        this.transport = transport;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.decoder = transport.decoder();
    }

    /** A complete handshake as a Tailscale client does it; fails the test on any refusal. */
    static NoiseTestClient connect(InetSocketAddress server, MachinePublicKey serverKey, int protocolVersion)
            throws IOException {
        MachinePrivateKey machineKey = MachinePrivateKey.generate();
        NoiseInitiator initiator = NoiseInitiator.start(machineKey, serverKey, protocolVersion);
        Socket socket = open(server);
        try {
            sendUpgrade(socket, "POST", Map.of("Upgrade", "tailscale-control-protocol", "Connection", "upgrade",
                    "X-Tailscale-Handshake", initiator.initiationHeaderValue()));
            HttpHead head = readHead(socket.getInputStream());
            if (head.status() != 101) {
                throw new IOException("expected 101, got " + head);
            }
            NoiseTransport transport = initiator.complete(readFrame(socket.getInputStream()));
            NoiseTestClient client = new NoiseTestClient(socket, machineKey, head, transport);
            if (protocolVersion >= 49) {
                client.readEarlyPayload();
            }
            return client;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** The early payload's JSON, or null when the server sent none. */
    String earlyPayload() {
        return earlyPayload;
    }

    /**
     * Reads the first 9 plaintext bytes, as Tailscale's client does: an early payload header, or else the start of
     * HTTP/2, which is put back. (An old client reads nothing before it sent its HTTP/2 preface: the server's HTTP/2
     * side says nothing first.)
     */
    private void readEarlyPayload() throws IOException {
        byte[] first = readPlaintext(EarlyPayload.HEADER_LENGTH);
        OptionalInt length = EarlyPayload.jsonLength(first);
        if (length.isEmpty()) {
            plaintext.addFirst(ByteBuffer.wrap(first));
            return;
        }
        earlyPayload = new String(readPlaintext(length.getAsInt()), StandardCharsets.UTF_8);
    }

    static Socket open(InetSocketAddress server) throws IOException {
        Socket socket = new Socket(server.getAddress(), server.getPort());
        socket.setSoTimeout((int) Duration.ofSeconds(20).toMillis());
        socket.setTcpNoDelay(true);
        return socket;
    }

    /** Writes an HTTP/1.1 request head for {@code /ts2021} with the given headers. */
    static void sendUpgrade(Socket socket, String method, Map<String, String> headers) throws IOException {
        StringBuilder request = new StringBuilder(method).append(" /ts2021 HTTP/1.1\r\n")
                .append("Host: ").append(socket.getInetAddress().getHostAddress()).append("\r\n")
                .append("Content-Length: 0\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("\r\n");
        socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** Reads a response head one byte at a time, so not a byte of what follows is consumed. */
    static HttpHead readHead(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed inside the response head: " + bytes);
            }
            bytes.write(b);
            String text = bytes.toString(StandardCharsets.ISO_8859_1);
            if (text.endsWith("\r\n\r\n")) {
                String[] lines = text.split("\r\n");
                Map<String, String> headers = new LinkedHashMap<>();
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).strip());
                }
                return new HttpHead(Integer.parseInt(lines[0].split(" ")[1]), headers);
            }
        }
    }

    /** One handshake-phase frame: the 3-byte header and the length it announces. */
    static byte[] readFrame(InputStream in) throws IOException {
        byte[] header = in.readNBytes(NoiseFrames.HEADER_LENGTH);
        if (header.length < NoiseFrames.HEADER_LENGTH) {
            throw new EOFException("connection closed before a frame header (" + header.length + " bytes)");
        }
        byte[] body = in.readNBytes(NoiseFrames.declaredLength(header, 0));
        ByteBuffer frame = ByteBuffer.allocate(header.length + body.length).put(header).put(body);
        return frame.array();
    }

    /** Reads until the server closes: true if it did within the socket timeout, with whatever it sent. */
    static byte[] readToEnd(Socket socket) throws IOException {
        try {
            return socket.getInputStream().readAllBytes();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within the timeout");
        }
    }

    /** Sends plaintext as records (split at 4077 bytes). */
    synchronized void writePlaintext(byte[] bytes) throws IOException {
        out.write(transport.encoder().encode(bytes));
        out.flush();
    }

    /** Sends raw bytes, bypassing Noise: for garbage and forged records. */
    synchronized void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads exactly {@code length} plaintext bytes. */
    byte[] readPlaintext(int length) throws IOException {
        byte[] result = new byte[length];
        int filled = 0;
        while (filled < length) {
            if (plaintext.isEmpty() && !fill()) {
                throw new EOFException("stream ended after " + filled + " of " + length + " plaintext bytes");
            }
            ByteBuffer head = plaintext.peekFirst();
            int count = Math.min(head.remaining(), length - filled);
            head.get(result, filled, count);
            filled += count;
            if (!head.hasRemaining()) {
                plaintext.pollFirst();
            }
        }
        return result;
    }

    /** Reads one socket chunk and decodes the records it completes; false at the end of the stream. */
    private boolean fill() throws IOException {
        int read = in.read(readBuffer);
        if (read < 0) {
            decoder.endOfStream();
            return false;
        }
        try {
            for (ByteBuffer record : decoder.decodeAvailable(ByteBuffer.wrap(readBuffer, 0, read))) {
                if (record.hasRemaining()) {
                    plaintext.addLast(record);
                }
            }
        } catch (NoiseProtocolException e) {
            throw new IOException("the server sent a bad record: " + e.getMessage(), e);
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
