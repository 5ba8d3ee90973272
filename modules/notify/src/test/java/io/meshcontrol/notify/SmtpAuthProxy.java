package io.meshcontrol.notify;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain-SMTP relay in front of a real mail server that changes the mechanisms its EHLO answer offers (GreenMail
 * offers PLAIN, LOGIN and XOAUTH2 and cannot be told otherwise), and records the commands the client sends.
 */
final class SmtpAuthProxy implements AutoCloseable {

    final List<String> commands = new CopyOnWriteArrayList<>();
    private final ServerSocket socket;
    private final int upstream;
    private final String mechanisms;

    /** @param mechanisms what the EHLO answer's AUTH line offers instead, e.g. "LOGIN" */
    SmtpAuthProxy(int upstream, String mechanisms) throws IOException {
        this.upstream = upstream;
        this.mechanisms = mechanisms;
        this.socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(this::accept);
    }

    int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = socket.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstream);
                Thread.ofPlatform().daemon().start(() -> pump(server, client, true));
                Thread.ofPlatform().daemon().start(() -> pump(client, server, false));
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private void pump(Socket from, Socket to, boolean fromServer) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(from.getInputStream(),
                StandardCharsets.ISO_8859_1)); OutputStream out = to.getOutputStream()) {
            String line;
            while ((line = in.readLine()) != null) {
                if (fromServer && line.matches("250[- ]AUTH .*")) {
                    line = line.substring(0, 4) + "AUTH " + mechanisms;
                } else if (!fromServer) {
                    commands.add(line);
                }
                out.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException ended) {
            // one side closed
        } finally {
            try {
                to.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
