package io.meshcontrol.gui;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A webhook endpoint on loopback for the tests: answers every request 204 and keeps each one's signature header.
 * Plain sockets (the JDK's HTTP server is in a module the app's tests do not read).
 */
final class HookReceiver implements AutoCloseable {

    final List<String> signatures = new CopyOnWriteArrayList<>();
    private final ServerSocket socket;
    private final Thread thread;

    private final int status;

    HookReceiver() throws IOException {
        this(204);
    }

    /** A receiver answering {@code status} (404: a delivery that fails at once, without retries). */
    HookReceiver(int status) throws IOException {
        this.status = status;
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = Thread.ofVirtual().start(this::serve);
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/hook";
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket client = socket.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(),
                        StandardCharsets.ISO_8859_1));
                int length = 0;
                String signature = null;
                for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                    String lower = line.toLowerCase(Locale.ROOT);
                    if (lower.startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).strip());
                    } else if (lower.startsWith("mesh-webhook-signature:")) {
                        signature = line.substring(23).strip();
                    }
                }
                in.skip(length); // ISO-8859-1: one char a byte
                signatures.add(String.valueOf(signature));
                client.getOutputStream().write(("HTTP/1.1 " + status + (status == 204 ? " No Content" : " Failed")
                        + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                // closed, or a client that went away: the next one
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
