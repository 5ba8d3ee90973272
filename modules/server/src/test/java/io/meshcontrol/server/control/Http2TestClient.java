package io.meshcontrol.server.control;

import io.undertow.protocols.http2.HpackDecoder;
import io.undertow.protocols.http2.HpackException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Just enough of an HTTP/2 client (RFC 9113) to drive the server through a {@link NoiseTestClient}: prior-knowledge
 * preface, requests with bodies under flow control, responses whose DATA frames are kept one by one with their arrival
 * time (to see flushes arrive), PING and GOAWAY. Requests are encoded by hand (HPACK literals, no Huffman); response
 * headers are decoded with Undertow's HPACK decoder, which is not what these tests are about.
 */
final class Http2TestClient implements AutoCloseable {

    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int RST_STREAM = 3;
    static final int SETTINGS = 4;
    private static final int PING = 6;
    private static final int GOAWAY = 7;
    private static final int WINDOW_UPDATE = 8;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int END_HEADERS = 0x4;
    private static final int PADDED = 0x8;
    private static final int PRIORITY_FLAG = 0x20;
    private static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    private static final int SETTINGS_MAX_FRAME_SIZE = 0x5;
    private static final int DEFAULT_WINDOW = 65_535;

    /** One DATA frame's payload and when it arrived. */
    record Chunk(byte[] data, long arrivedNanos) {
    }

    /** One request's response as it arrives. */
    static final class Exchange {
        final int streamId;
        final CompletableFuture<Map<String, String>> headers = new CompletableFuture<>();
        final BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
        final CompletableFuture<Void> ended = new CompletableFuture<>();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private long sendWindow;

        Exchange(int streamId, long sendWindow) {
            this.streamId = streamId;
            this.sendWindow = sendWindow;
        }

        int status(Duration timeout) throws Exception {
            return Integer.parseInt(headers.get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(":status"));
        }

        /** The whole body, once the stream has ended. */
        byte[] body(Duration timeout) throws Exception {
            ended.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (body) {
                return body.toByteArray();
            }
        }

        /** The next DATA frame, or null if none came in time. */
        Chunk nextChunk(Duration timeout) throws InterruptedException {
            return chunks.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private final NoiseTestClient noise;
    private final Thread reader;
    private final Map<Integer, Exchange> streams = new ConcurrentHashMap<>();
    private final BlockingQueue<Long> pingAcks = new LinkedBlockingQueue<>();
    final CompletableFuture<Integer> goAway = new CompletableFuture<>();
    final CompletableFuture<Throwable> readerEnded = new CompletableFuture<>();
    /** The type of the server's first frame, which RFC 9113 says is SETTINGS: anything else was not HTTP/2. */
    final CompletableFuture<Integer> firstFrameType = new CompletableFuture<>();
    private final HpackDecoder hpack = new HpackDecoder();
    private int nextStreamId = 1;
    private long connectionSendWindow = DEFAULT_WINDOW;
    private int initialStreamWindow = DEFAULT_WINDOW;
    private int maxFrameSize = 16_384;

    Http2TestClient(NoiseTestClient noise) throws IOException {
        this.noise = noise;
        ByteArrayOutputStream start = new ByteArrayOutputStream();
        start.writeBytes(PREFACE);
        start.writeBytes(frame(SETTINGS, 0, 0, new byte[0]));
        noise.writePlaintext(start.toByteArray());
        reader = Thread.ofVirtual().name("http2-test-reader").start(this::readFrames);
    }

    /** Sends a request; a non-null body goes out in DATA frames as the flow-control windows allow. */
    Exchange request(String method, String path, byte[] body) throws IOException, InterruptedException {
        Exchange exchange;
        synchronized (this) {
            exchange = new Exchange(nextStreamId, initialStreamWindow);
            nextStreamId += 2;
            streams.put(exchange.streamId, exchange);
            byte[] block = requestHeaders(method, path, body == null ? -1 : body.length);
            noise.writePlaintext(frame(HEADERS, END_HEADERS | (body == null ? END_STREAM : 0), exchange.streamId,
                    block));
        }
        if (body != null) {
            sendBody(exchange, body);
        }
        return exchange;
    }

    /** Round trip of a PING, which the server's HTTP/2 layer answers itself. */
    Duration ping(Duration timeout) throws IOException, InterruptedException {
        long sent = System.nanoTime();
        noise.writePlaintext(frame(PING, 0, 0, ByteBuffer.allocate(8).putLong(sent).array()));
        Long echoed = pingAcks.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (echoed == null || echoed != sent) {
            throw new IOException("no PING acknowledgement within " + timeout);
        }
        return Duration.ofNanos(System.nanoTime() - sent);
    }

    private void sendBody(Exchange exchange, byte[] body) throws IOException, InterruptedException {
        int offset = 0;
        do {
            int length;
            synchronized (this) {
                while (Math.min(connectionSendWindow, exchange.sendWindow) <= 0 && !readerEnded.isDone()) {
                    wait(100);
                }
                if (readerEnded.isDone()) {
                    throw new IOException("connection ended while sending the body");
                }
                length = (int) Math.min(Math.min(connectionSendWindow, exchange.sendWindow),
                        Math.min(maxFrameSize, body.length - offset));
                connectionSendWindow -= length;
                exchange.sendWindow -= length;
                byte[] payload = new byte[length];
                System.arraycopy(body, offset, payload, 0, length);
                boolean last = offset + length == body.length;
                noise.writePlaintext(frame(DATA, last ? END_STREAM : 0, exchange.streamId, payload));
            }
            offset += length;
        } while (offset < body.length);
    }

    private void readFrames() {
        try {
            while (true) {
                byte[] header = noise.readPlaintext(9);
                int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
                int type = header[3] & 0xff;
                int flags = header[4] & 0xff;
                int streamId = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7fffffff;
                firstFrameType.complete(type);
                byte[] payload = noise.readPlaintext(length);
                handle(type, flags, streamId, payload);
            }
        } catch (Throwable e) {
            readerEnded.complete(e);
            streams.values().forEach(exchange -> {
                exchange.ended.completeExceptionally(e);
                exchange.headers.completeExceptionally(e);
            });
            synchronized (this) {
                notifyAll();
            }
        }
    }

    private void handle(int type, int flags, int streamId, byte[] payload) throws IOException, HpackException {
        switch (type) {
            case DATA -> {
                Exchange exchange = streams.get(streamId);
                byte[] data = unpad(flags, payload, 0);
                if (exchange != null) {
                    exchange.chunks.add(new Chunk(data, System.nanoTime()));
                    synchronized (exchange.body) {
                        exchange.body.writeBytes(data);
                    }
                }
                if (payload.length > 0) {
                    // Give back what was consumed at once, so the server is never held up by this client.
                    ByteBuffer increment = ByteBuffer.allocate(4).putInt(payload.length);
                    noise.writePlaintext(frame(WINDOW_UPDATE, 0, 0, increment.array()));
                    if ((flags & END_STREAM) == 0) {
                        noise.writePlaintext(frame(WINDOW_UPDATE, 0, streamId, increment.array()));
                    }
                }
                if ((flags & END_STREAM) != 0 && exchange != null) {
                    exchange.ended.complete(null);
                }
            }
            case HEADERS -> {
                Exchange exchange = streams.get(streamId);
                byte[] block = unpad(flags, payload, (flags & PRIORITY_FLAG) != 0 ? 5 : 0);
                Map<String, String> headers = new LinkedHashMap<>();
                hpack.setHeaderEmitter((name, value, neverIndex) -> headers.put(name.toString(), value));
                hpack.decode(ByteBuffer.wrap(block), false);
                if (exchange != null) {
                    if (!exchange.headers.isDone()) {
                        exchange.headers.complete(headers);
                    }
                    if ((flags & END_STREAM) != 0) {
                        exchange.ended.complete(null);
                    }
                }
            }
            case RST_STREAM -> {
                Exchange exchange = streams.get(streamId);
                if (exchange != null) {
                    IOException reset = new IOException("stream reset, code " + ByteBuffer.wrap(payload).getInt());
                    exchange.headers.completeExceptionally(reset);
                    exchange.ended.completeExceptionally(reset);
                }
            }
            case SETTINGS -> {
                if ((flags & ACK) == 0) {
                    applySettings(payload);
                    noise.writePlaintext(frame(SETTINGS, ACK, 0, new byte[0]));
                }
            }
            case PING -> {
                if ((flags & ACK) != 0) {
                    pingAcks.add(ByteBuffer.wrap(payload).getLong());
                } else {
                    noise.writePlaintext(frame(PING, ACK, 0, payload));
                }
            }
            case GOAWAY -> goAway.complete(ByteBuffer.wrap(payload, 4, 4).getInt());
            case WINDOW_UPDATE -> {
                int increment = ByteBuffer.wrap(payload).getInt() & 0x7fffffff;
                synchronized (this) {
                    if (streamId == 0) {
                        connectionSendWindow += increment;
                    } else if (streams.get(streamId) != null) {
                        streams.get(streamId).sendWindow += increment;
                    }
                    notifyAll();
                }
            }
            default -> {
                // PRIORITY, PUSH_PROMISE (never enabled), CONTINUATION (header blocks here are small): ignored
            }
        }
    }

    private synchronized void applySettings(byte[] payload) {
        ByteBuffer settings = ByteBuffer.wrap(payload);
        while (settings.remaining() >= 6) {
            int id = settings.getShort() & 0xffff;
            int value = settings.getInt();
            if (id == SETTINGS_INITIAL_WINDOW_SIZE) {
                int delta = value - initialStreamWindow;
                initialStreamWindow = value;
                streams.values().forEach(exchange -> exchange.sendWindow += delta);
            } else if (id == SETTINGS_MAX_FRAME_SIZE) {
                maxFrameSize = value;
            }
        }
        notifyAll();
    }

    private static byte[] unpad(int flags, byte[] payload, int prefix) {
        int start = prefix;
        int end = payload.length;
        if ((flags & PADDED) != 0) {
            int padding = payload[0] & 0xff;
            start += 1;
            end -= padding;
        }
        byte[] data = new byte[end - start];
        System.arraycopy(payload, start, data, 0, data.length);
        return data;
    }

    /** HPACK: every field a literal without indexing and with a literal name, strings without Huffman coding. */
    private byte[] requestHeaders(String method, String path, int contentLength) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(":method", method);
        fields.put(":scheme", "https");
        fields.put(":authority", "control.test");
        fields.put(":path", path);
        if (contentLength >= 0) {
            fields.put("content-length", String.valueOf(contentLength));
        }
        fields.forEach((name, value) -> {
            block.write(0x00);
            writeString(block, name);
            writeString(block, value);
        });
        return block.toByteArray();
    }

    private static void writeString(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int length = bytes.length;
        if (length < 127) {
            out.write(length);
        } else {
            out.write(127);
            length -= 127;
            while (length >= 128) {
                out.write((length & 0x7f) | 0x80);
                length >>>= 7;
            }
            out.write(length);
        }
        out.writeBytes(bytes);
    }

    static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        return ByteBuffer.allocate(9 + payload.length)
                .put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(streamId).put(payload)
                .array();
    }

    @Override
    public void close() throws IOException {
        noise.close();
        reader.interrupt();
    }
}
