package io.meshcontrol.notify;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver on a free loopback port, as a real one would be: it checks each request's
 * {@code Mesh-Webhook-Signature} against the secret set for its path (HMAC-SHA256 of {@code t.body}, compared in
 * constant time, {@code t} within five minutes of {@code now}) and records what came. Answers are 200 unless the test
 * queued others for the path; {@link #hold()} keeps requests waiting until {@link #release()}.
 */
final class WebhookReceiver implements AutoCloseable {

    record Received(String path, String query, Map<String, List<String>> headers, String body, boolean signed) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }
    }

    private final HttpServer server;
    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final Map<String, Queue<Integer>> answers = new ConcurrentHashMap<>();
    final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger concurrent = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();
    /** Bodies being received now, and those that arrived while the same body was being received (twice at once). */
    private final Map<String, AtomicInteger> receiving = new ConcurrentHashMap<>();
    final List<String> receivedTwiceAtOnce = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile Instant now = Instant.now();

    WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    int port() {
        return server.getAddress().getPort();
    }

    WebhookReceiver secret(String path, String secret) {
        secrets.put(path, secret);
        return this;
    }

    /** The receiver's idea of the time, for the five-minute check (tests on a moved clock set it). */
    WebhookReceiver now(Instant instant) {
        now = instant;
        return this;
    }

    /** The next requests to {@code path} get these statuses, in order; then 200 again. */
    WebhookReceiver answer(String path, Integer... statuses) {
        answers.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>()).addAll(List.of(statuses));
        return this;
    }

    void hold() {
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    /** Requests being received now (held ones included). */
    int receivingNow() {
        return concurrent.get();
    }

    List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int inside = concurrent.incrementAndGet();
        maxConcurrent.accumulateAndGet(inside, Math::max);
        AtomicInteger same = null;
        try {
            String path = exchange.getRequestURI().getPath();
            byte[] body = exchange.getRequestBody().readAllBytes();
            String text = new String(body, StandardCharsets.UTF_8);
            same = receiving.computeIfAbsent(text, b -> new AtomicInteger());
            if (same.incrementAndGet() > 1) {
                receivedTwiceAtOnce.add(text);
            }
            String signature = exchange.getRequestHeaders().getFirst("Mesh-Webhook-Signature");
            received.add(new Received(path, exchange.getRequestURI().getRawQuery(),
                    Map.copyOf(exchange.getRequestHeaders()), new String(body, StandardCharsets.UTF_8),
                    verifies(secrets.get(path), signature, body)));
            gate.await(30, TimeUnit.SECONDS);
            Queue<Integer> queued = answers.get(path);
            Integer queuedStatus = queued == null ? null : queued.poll();
            int status = queuedStatus == null ? 200 : queuedStatus;
            if (status >= 300 && status < 400) {
                exchange.getResponseHeaders().add("Location", url("/redirected"));
            }
            exchange.sendResponseHeaders(status, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (same != null) {
                same.decrementAndGet();
            }
            concurrent.decrementAndGet();
            exchange.close();
        }
    }

    /** What a receiver does: recompute the HMAC of "t.body", compare in constant time, refuse an old t. */
    private boolean verifies(String secret, String header, byte[] body) {
        if (secret == null || header == null) {
            return false;
        }
        String t = null;
        List<String> v1 = new CopyOnWriteArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                t = kv[1];
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                v1.add(kv[1]);
            }
        }
        if (t == null || Math.abs(Duration.between(Instant.ofEpochSecond(Long.parseLong(t)), now).toSeconds()) > 300) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
            byte[] expected = mac.doFinal(body);
            return v1.stream().anyMatch(hex -> MessageDigest.isEqual(expected, HexFormat.of().parseHex(hex)));
        } catch (Exception e) {
            return false;
        }
    }

    /** Waits (up to a minute) until {@code condition} holds; fails the test otherwise. */
    static void await(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("gave up waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
