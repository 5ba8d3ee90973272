package io.meshcontrol.server.listener;

import io.meshcontrol.core.config.MeshConfig;
import java.time.Duration;

/**
 * What a connection to a listener facing the network may hold before it is closed ({@code listener.*}). None of it
 * applies once a connection has switched to ts2021 or DERP: those protocols keep their connections alive and reap
 * them themselves (the ts2021 session's idle timeout, the relay's keep-alives).
 *
 * @param headerTimeout a request's header must be complete this long after its first byte arrived
 * @param idleTimeout a connection that sends no request for this long (from its opening, or after the last answer)
 *                    is closed, and so is a request whose body stalls for this long
 * @param maxConnectionsPerAddress how many connections one remote address may hold open before they switch
 *                                 protocols; loopback is exempt (a reverse proxy on the same machine), 0 turns the
 *                                 cap off
 * @param failedCredentialsPerAddress how many failed credentials one address may present before each further one is
 *                                    answered 429 ({@code FailedCredentials}); 0 turns the back-off off
 */
public record ListenerLimits(Duration headerTimeout, Duration idleTimeout, int maxConnectionsPerAddress,
        int failedCredentialsPerAddress) {

    public static ListenerLimits from(MeshConfig.Listener listener) {
        return new ListenerLimits(listener.headerTimeout(), listener.idleTimeout(),
                listener.maxConnectionsPerAddress(), listener.failedCredentialsPerAddress());
    }
}
