package io.meshcontrol.server.live;

import io.meshcontrol.api.Problem;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/events}: server-sent events fed by the change feed, so that the console reads again only what
 * changed instead of polling whole lists. Each {@code change} event carries a {@link ChangeDigest} of at most one
 * {@link #SETTLE} of changes; a comment line keeps an idle stream (and the proxies on its way) open. The stream ends
 * when the client goes or the server stops; the browser's {@code EventSource} then connects again by itself.
 */
public final class EventStreamRoutes {

    /** How long a burst of changes gathers into one event. */
    static final Duration SETTLE = Duration.ofMillis(250);
    /** At most this many streams at once (each holds a virtual thread and a feed listener); more get 503. */
    static final int MOST_STREAMS = 1_000;
    /** The longest an idle stream stays silent: well below common proxy timeouts. */
    private static final Duration LONGEST_SILENCE = Duration.ofSeconds(25);

    private final Snapshots feed;
    private final JsonMapper json;
    private final Duration keepAlive;
    private final Semaphore streams = new Semaphore(MOST_STREAMS);

    /** @param idleTimeout the listener's idle timeout: an idle stream writes well within it */
    public EventStreamRoutes(Snapshots feed, JsonMapper json, Duration idleTimeout) {
        this.feed = feed;
        this.json = json;
        Duration half = idleTimeout.dividedBy(2);
        this.keepAlive = half.compareTo(LONGEST_SILENCE) < 0 ? half : LONGEST_SILENCE;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/events", request -> {
            Caller caller = request.caller();
            if (!streams.tryAcquire()) {
                Problem busy = new Problem("about:blank", "Service Unavailable", 503, "too many event streams are open ("
                        + MOST_STREAMS + "); try again later", "/api/v1/events", null);
                return new Reply(503, new RawBody(Problem.MEDIA_TYPE, json.writeValueAsBytes(busy)),
                        Map.of("Retry-After", "30"));
            }
            try {
                stream(request.exchange(), caller);
            } finally {
                streams.release();
            }
            return Reply.streamed();
        });
    }

    private void stream(HttpServerExchange exchange, Caller caller) {
        ChangesSeen seen = new ChangesSeen(caller, feed.current());
        Runnable unsubscribe = feed.subscribe(seen);
        try {
            exchange.setStatusCode(200);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
            exchange.getResponseHeaders().put(new HttpString("X-Accel-Buffering"), "no"); // nginx: pass each event on at once
            OutputStream out = exchange.getOutputStream();
            // The browser waits this long before it connects again after the stream ends.
            send(out, "retry: 3000\nevent: ready\ndata: {}\n\n");
            while (!Thread.currentThread().isInterrupted()) {
                ChangeDigest digest = seen.await(keepAlive.toMillis(), SETTLE.toMillis());
                send(out, digest.isEmpty() ? ":\n\n" : "event: change\ndata: " + json.writeValueAsString(digest)
                        + "\n\n");
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping
        } finally {
            unsubscribe.run();
        }
    }

    private static void send(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
