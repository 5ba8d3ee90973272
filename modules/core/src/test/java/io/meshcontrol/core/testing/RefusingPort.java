package io.meshcontrol.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback TCP port that refuses every connection, for tests of "connection refused". A port found free and
 * closed again could be taken by anything started meanwhile (a test running in parallel); this one stays bound, but
 * never listens, for as long as the test JVM runs, so the kernel hands it to no one else and a connection to it
 * is refused (docs/development.md, "A fast suite").
 */
public final class RefusingPort {

    private static final Socket HELD = bind();

    private RefusingPort() {
    }

    /** The port number; the same for the whole test JVM. */
    public static int number() {
        return HELD.getLocalPort();
    }

    /** {@code http://127.0.0.1:<port>} followed by {@code path}. */
    public static String url(String path) {
        return "http://127.0.0.1:" + number() + path;
    }

    private static Socket bind() {
        Socket socket = new Socket();
        try {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return socket;
    }
}
