package io.meshcontrol.interop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.meshcontrol.server.tls.CertifiedKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A front to pebble's ACME API for the vendor's ACME client ({@code tailscale cert}), which cannot follow an
 * asynchronous finalization: after posting the CSR it polls the order at the finalize answer's {@code Location}
 * header, which pebble does not send (its order is still "processing"; Let's Encrypt's servers finish at once).
 * Every request is passed on to pebble unchanged, with the {@code Host} the client used (pebble builds its URLs and
 * checks the signed {@code url} from it); a finalize answer gets the order's URL as its {@code Location}. Served over
 * HTTPS with pebble's own {@code localhost} certificate, so clients trust {@link Pebble#apiCertificate()} as before.
 */
final class PebbleFront implements AutoCloseable {

    private static final String FINALIZE = "/finalize-order/";
    private static final String ORDER = "/my-order/";
    private static final Set<String> HOP_HEADERS = Set.of("content-length", "connection", "transfer-encoding");
    /** Request headers the front sets itself (or leaves out: answers come unencoded). */
    private static final Set<String> FRONT_HEADERS = Set.of("host", "content-length", "connection", "transfer-encoding",
            "accept-encoding", "keep-alive");

    private final HttpsServer server;
    private final int pebblePort;
    private final SSLContext toPebble;

    private PebbleFront(HttpsServer server, int pebblePort, SSLContext toPebble) {
        this.server = server;
        this.pebblePort = pebblePort;
        this.toPebble = toPebble;
    }

    /** Starts a front on a free loopback port for pebble's API on {@code pebblePort}. */
    static PebbleFront start(int pebblePort) throws Exception {
        CertifiedKey identity = CertifiedKey.parse(Files.readString(Pebble.home().resolve("certs/localhost-cert.pem")),
                Files.readString(Pebble.home().resolve("certs/localhost-key.pem")));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("localhost", identity.key(), new char[0], identity.chain().toArray(new Certificate[0]));
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, new char[0]);
        SSLContext serving = SSLContext.getInstance("TLS");
        serving.init(keyManagers.getKeyManagers(), null, null);

        KeyStore roots = KeyStore.getInstance("PKCS12");
        roots.load(null, null);
        try (InputStream in = Files.newInputStream(Pebble.apiCertificate())) {
            roots.setCertificateEntry("minica", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(roots);
        SSLContext toPebble = SSLContext.getInstance("TLS");
        toPebble.init(null, trust.getTrustManagers(), null);

        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(serving));
        PebbleFront front = new PebbleFront(server, pebblePort, toPebble);
        server.createContext("/", front::pass);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        return front;
    }

    /** The directory URL to give ACME clients. */
    String directoryUrl() {
        return "https://localhost:" + server.getAddress().getPort() + "/dir";
    }

    private void pass(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String target = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            String host = exchange.getRequestHeaders().getFirst("Host");
            StringBuilder request = new StringBuilder(exchange.getRequestMethod() + " " + target + " HTTP/1.0\r\n")
                    .append("Host: ").append(host).append("\r\n");
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!FRONT_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(value -> request.append(name).append(": ").append(value).append("\r\n"));
                }
            });
            request.append("Content-Length: ").append(body.length).append("\r\n\r\n");
            byte[] answer;
            try (var socket = toPebble.getSocketFactory().createSocket("127.0.0.1", pebblePort)) {
                OutputStream out = socket.getOutputStream();
                out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                answer = socket.getInputStream().readAllBytes(); // HTTP/1.0: pebble closes after its answer
            }
            int split = indexOf(answer, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String[] head = new String(answer, 0, split, StandardCharsets.ISO_8859_1).split("\r\n");
            byte[] content = Arrays.copyOfRange(answer, split + 4, answer.length);
            int status = Integer.parseInt(head[0].split(" ")[1]);
            boolean located = false;
            for (int i = 1; i < head.length; i++) {
                int colon = head[i].indexOf(':');
                String name = head[i].substring(0, colon).trim();
                if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                    exchange.getResponseHeaders().add(name, head[i].substring(colon + 1).trim());
                    located |= name.equalsIgnoreCase("Location");
                }
            }
            String path = exchange.getRequestURI().getRawPath();
            if (path.startsWith(FINALIZE) && !located) {
                exchange.getResponseHeaders().add("Location",
                        "https://" + host + ORDER + path.substring(FINALIZE.length()));
            }
            exchange.sendResponseHeaders(status, content.length == 0 ? -1 : content.length);
            if (content.length > 0) {
                exchange.getResponseBody().write(content);
            }
        }
    }

    private static int indexOf(byte[] data, byte[] pattern) throws IOException {
        outer:
        for (int i = 0; i + pattern.length <= data.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IOException("pebble's answer has no end of its header (" + data.length + " bytes)");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
