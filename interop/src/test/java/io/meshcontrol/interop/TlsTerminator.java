package io.meshcontrol.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A TLS-terminating proxy on loopback in front of a plain-HTTP server, as a reverse proxy would stand in front of
 * the server in production. Its certificate is self-signed (made with the JDK's keytool), so relay maps pointing at
 * it set {@code InsecureForTests}.
 */
final class TlsTerminator implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress backend;

    private TlsTerminator(ServerSocket listener, InetSocketAddress backend) {
        this.listener = listener;
        this.backend = backend;
        Thread.ofVirtual().name("tls-terminator").start(this::acceptLoop);
    }

    static TlsTerminator start(Path workDir, InetSocketAddress backend) throws Exception {
        Files.createDirectories(workDir);
        Path store = workDir.resolve("tls.p12");
        char[] password = "changeit".toCharArray();
        Process keytool = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "relay", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit")).redirectErrorStream(true).start();
        String out = new String(keytool.getInputStream().readAllBytes());
        if (!keytool.waitFor(30, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + out);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, password);
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, password);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(managers.getKeyManagers(), null, null);
        ServerSocket listener = tls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        return new TlsTerminator(listener, backend);
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Thread.ofVirtual().start(() -> relay(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void relay(Socket client) {
        try (client; Socket server = new Socket(backend.getAddress(), backend.getPort())) {
            Thread up = Thread.ofVirtual().start(() -> pump(client, server));
            pump(server, client);
            up.join();
        } catch (IOException | InterruptedException e) {
            // either side went away
        }
    }

    private static void pump(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[16384];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // closed
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
