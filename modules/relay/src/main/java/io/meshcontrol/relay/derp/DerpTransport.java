package io.meshcontrol.relay.derp;

import java.net.SocketAddress;

/**
 * The connection under one DERP client, as the relay sees it. The transport feeds received bytes to
 * {@link DerpSession#received}, writes what {@link DerpSession#nextFrame} gives it whenever {@link #writeReady} is
 * called, and reports the end with {@link DerpSession#closed}. The relay never blocks on it.
 */
public interface DerpTransport {

    /** Frames are waiting in the session; called from any thread. */
    void writeReady();

    /** Closes the connection; called from any thread, more than once is harmless. */
    void close();

    SocketAddress remoteAddress();
}
