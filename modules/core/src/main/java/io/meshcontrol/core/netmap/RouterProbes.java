package io.meshcontrol.core.netmap;

import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.wire.PingRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Health of routers that share a subnet route, beyond holding a stream: every interval each such router is sent a
 * {@code PingRequest} on its map stream, which the client answers with a {@code HEAD} to a fresh URL over its Noise
 * connection. A router that does not answer within the timeout loses its prefixes to the next healthy router
 * ({@link RouteElection#probed}); answering a later probe makes it healthy again. A timeout counts only while the
 * stream the probe went on is still the node's open stream: a reconnecting router is judged by its next probe.
 */
public final class RouterProbes {

    /** The path the client answers at, over its control connection. */
    public static final String ANSWER_PATH = "/machine/ping-response";

    private static final System.Logger LOG = System.getLogger(RouterProbes.class.getName());

    private record Pending(long nodeId, MapSession stream) {
    }

    private final MapSessions sessions;
    private final RouteElection election;
    private final String answerUrl;
    private final Duration timeout;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    /**
     * @param serverUrl the server's public URL ({@code server_url}): the client sends its answer there
     * @param timer runs the probes and their timeouts; its owner shuts it down
     */
    public RouterProbes(MapSessions sessions, RouteElection election, String serverUrl, Duration timeout,
            ScheduledExecutorService timer) {
        this.sessions = sessions;
        this.election = election;
        this.answerUrl = answerUrl(serverUrl);
        this.timeout = timeout;
        this.timer = timer;
    }

    /**
     * Where a router answers, on {@code server_url}'s host, always {@code https://}: the client sends an
     * {@code https://} URL over Noise to the server it logged in at, whatever the host (as it sends its own control
     * requests), while 1.102 clients send an {@code http://} one over Noise only to the very host and port they logged
     * in at, and as plain HTTP/2 to any other (a router that logged in at 127.0.0.1 when {@code server_url} says
     * localhost). The host only matters to clients that open a connection for it.
     */
    static String answerUrl(String serverUrl) {
        return serverUrl.replaceAll("/+$", "").replaceFirst("^[hH][tT][tT][pP]:", "https:") + ANSWER_PATH + "?id=";
    }

    /** Probes every {@code interval} from now on (a zero interval probes never). */
    public RouterProbes every(Duration interval) {
        if (!interval.isZero()) {
            timer.scheduleWithFixedDelay(this::probeGuarded, interval.toMillis(), interval.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** A failed round is logged; the next one runs all the same. */
    private void probeGuarded() {
        try {
            probeOnce();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "probing routers failed", e);
        }
    }

    /** Sends one probe to each router sharing a prefix, and judges each when the timeout has passed. */
    public void probeOnce() {
        for (long id : election.sharedRouters()) {
            String token = RandomText.alphanumeric(24);
            Optional<MapSession> stream = sessions.ping(id, new PingRequest(answerUrl + token, true, false, null, null,
                    null));
            if (stream.isEmpty()) {
                continue; // no stream: offline, which the election already knows
            }
            pending.put(token, new Pending(id, stream.get()));
            timer.schedule(() -> expire(token), timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A client's answer to the probe {@code token}, over the connection of the machine whose node is {@code nodeId}.
     *
     * @return whether it answered a pending probe of that node (an unknown, late or foreign token is not one)
     */
    public boolean answered(String token, long nodeId) {
        Pending probe = token == null ? null : pending.get(token);
        if (probe == null || probe.nodeId() != nodeId || !pending.remove(token, probe)) {
            return false;
        }
        election.probed(nodeId, true);
        return true;
    }

    private void expire(String token) {
        Pending probe = pending.remove(token);
        if (probe != null && probe.stream().open()) {
            election.probed(probe.nodeId(), false);
        }
    }
}
