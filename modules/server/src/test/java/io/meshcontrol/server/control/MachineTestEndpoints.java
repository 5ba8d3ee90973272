package io.meshcontrol.server.control;

import io.meshcontrol.core.netmap.frames.MapFrame;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code /machine/test/*} endpoints that only tests register: they exercise the transport the way the real
 * {@code /machine/*} handlers will (bodies both ways, a long poll that flushes framed messages), without any of their
 * logic.
 */
final class MachineTestEndpoints {

    private MachineTestEndpoints() {
    }

    static void register(MachineRoutes routes) {
        routes.add("POST", "/machine/test/echo", MachineTestEndpoints::echo);
        routes.add("GET", "/machine/test/whoami", MachineTestEndpoints::whoami);
        routes.add("GET", "/machine/test/stream", MachineTestEndpoints::stream);
        routes.add("GET", "/machine/test/download", MachineTestEndpoints::download);
        routes.add("POST", "/machine/test/upload", MachineTestEndpoints::upload);
        // Answered on the I/O thread, without blocking streams.
        routes.addNonBlocking("GET", "/machine/test/download-async", exchange -> exchange.getResponseSender().send(
                ByteBuffer.wrap(NoiseConduitTest.pattern(1 << 20, 42))));
        routes.add("GET", "/machine/test/fail", (exchange, connection) -> {
            throw new IllegalStateException("this endpoint always fails");
        });
    }

    /** The request body, back as it came. */
    private static void echo(HttpServerExchange exchange, ControlConnection connection) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getInputStream()) {
            body = in.readAllBytes();
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
        exchange.getOutputStream().write(body);
    }

    /** What the transport knows about the connection, as JSON. */
    private static void whoami(HttpServerExchange exchange, ControlConnection connection) throws IOException {
        String challenge = connection.nodeKeyChallenge().map(key -> key.publicKey().toText()).orElse("");
        String json = "{\"machineKey\":\"" + connection.machineKey().toText() + "\",\"protocolVersion\":"
                + connection.protocolVersion() + ",\"nodeKeyChallenge\":\"" + challenge + "\"}";
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A long poll in the shape of {@code /machine/map}: {@code chunks} messages, each a 4-byte little-endian length
     * and a body that starts with its index and the time it was sent (epoch milliseconds, big-endian), flushed one by
     * one with {@code pauseMillis} between them, through the map endpoint's {@link MapStreamOutput} (every second one
 * in pieces, as a full map's frame is written). The rest of a
     * body is {@link NoiseConduitTest#pattern} bytes (seeded with the index), so that a test can check every byte.
     */
    private static void stream(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        int chunks = intParameter(exchange, "chunks", 5);
        long pause = intParameter(exchange, "pauseMillis", 200);
        int size = Math.max(12, intParameter(exchange, "size", 100));
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
        try (OutputStream out = new MapStreamOutput(exchange, connection.ioTasks())) {
            for (int i = 0; i < chunks; i++) {
                if (i > 0) {
                    Thread.sleep(pause);
                }
                byte[] message = streamMessage(i, size, System.currentTimeMillis());
                if (i % 2 == 0) {
                    out.write(message);
                    out.flush();
                } else {
                    inPieces(message).writeTo(out); // as a full map's kept blocks go: one write of many arrays
                }
            }
        }
    }

    /** The message cut in up to 16 pieces of about equal length (a 4-byte header first, as a map frame has it). */
    private static MapFrame inPieces(byte[] message) {
        List<byte[]> pieces = new ArrayList<>();
        pieces.add(Arrays.copyOf(message, 4));
        int step = Math.max(1, (message.length - 4) / 15);
        for (int from = 4; from < message.length; from += step) {
            pieces.add(Arrays.copyOfRange(message, from, Math.min(message.length, from + step)));
        }
        return new MapFrame(pieces, message.length);
    }

    /** Message {@code index} of {@link #stream}, as it is sent at {@code sentMillis}. */
    static byte[] streamMessage(int index, int size, long sentMillis) {
        ByteBuffer message = ByteBuffer.allocate(4 + size);
        message.order(ByteOrder.LITTLE_ENDIAN).putInt(size).order(ByteOrder.BIG_ENDIAN);
        message.putInt(index).putLong(sentMillis);
        message.put(NoiseConduitTest.pattern(size - 12, index));
        return message.array();
    }

    /** Reads the body and answers how many bytes it had. */
    private static void upload(HttpServerExchange exchange, ControlConnection connection) throws IOException {
        long count;
        try (InputStream in = exchange.getInputStream()) {
            count = in.transferTo(OutputStream.nullOutputStream());
        }
        exchange.getOutputStream().write(Long.toString(count).getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code size} patterned bytes. */
    private static void download(HttpServerExchange exchange, ControlConnection connection) throws IOException {
        int size = intParameter(exchange, "size", 1 << 20);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
        exchange.getOutputStream().write(NoiseConduitTest.pattern(size, 42));
    }

    private static int intParameter(HttpServerExchange exchange, String name, int otherwise) {
        var values = exchange.getQueryParameters().get(name);
        return values == null || values.isEmpty() ? otherwise : Integer.parseInt(values.getFirst());
    }
}
