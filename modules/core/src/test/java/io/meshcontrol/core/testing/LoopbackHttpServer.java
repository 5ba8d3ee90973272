package io.meshcontrol.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny HTTP/1.1 server on a free loopback port that answers each path with what the test set (404 otherwise) and
 * records every request, its body included. One request per connection; plain sockets, so it needs no module beyond java.base.
 */
public final class LoopbackHttpServer implements AutoCloseable {

    public record Answer(int status, Map<String, String> headers, byte[] body) {
    }

    /**
     * @param target the request target as sent (path and query)
     * @param headers names in lower case
     * @param body what the request carried (its {@code Content-Length} bytes), as UTF-8
     */
    public record Request(String method, String target, Map<String, String> headers, String body) {
    }

    private final ServerSocket socket;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    public final List<Request> requests = new CopyOnWriteArrayList<>();

    public LoopbackHttpServer() {
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofPlatform().daemon().name("loopback-http").start(this::acceptLoop);
    }

    /** Answers {@code path} with 200 and this JSON. */
    public LoopbackHttpServer serve(String path, String json) {
        return answer(path, new Answer(200, Map.of("Content-Type", "application/json"),
                json.getBytes(StandardCharsets.UTF_8)));
    }

    public LoopbackHttpServer answer(String path, Answer answer) {
        answers.put(path, answer);
        return this;
    }

    public int port() {
        return socket.getLocalPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** How many requests asked for {@code path} (query ignored). */
    public long requestsFor(String path) {
        return requests.stream().filter(r -> r.target().equals(path) || r.target().startsWith(path + "?")).count();
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread.ofVirtual().start(() -> handle(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void handle(Socket client) {
        try (client) {
            client.setSoTimeout(10_000);
            InputStream in = client.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return;
                }
                head.write(b);
            }
            String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
            String[] requestLine = lines[0].split(" ");
            Map<String, String> headers = new ConcurrentHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).trim());
                }
            }
            String target = requestLine[1];
            byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
            requests.add(new Request(requestLine[0], target, headers, new String(body, StandardCharsets.UTF_8)));
            int query = target.indexOf('?');
            Answer answer = answers.getOrDefault(query < 0 ? target : target.substring(0, query),
                    new Answer(404, Map.of(), new byte[0]));
            StringBuilder response = new StringBuilder("HTTP/1.1 " + answer.status() + " Status\r\n");
            answer.headers().forEach((name, value) -> response.append(name).append(": ").append(value).append("\r\n"));
            response.append("Content-Length: ").append(answer.body().length).append("\r\nConnection: close\r\n\r\n");
            OutputStream out = client.getOutputStream();
            out.write(response.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(answer.body());
            out.flush();
        } catch (IOException e) {
            // the client went away; nothing to answer
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a listening socket does not fail in a way worth reporting
        }
    }
}
