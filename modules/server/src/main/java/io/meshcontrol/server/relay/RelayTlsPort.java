package io.meshcontrol.server.relay;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.relay.tls.RelayCertificate;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import java.net.InetSocketAddress;

/**
 * The relay's own TLS port, for a server reached over plain HTTP: stock clients speak DERP over TLS only, so they
 * cannot use {@code /derp} on an {@code http://} listener. It serves the relay's endpoints and nothing else, with the
 * relay's self-signed certificate, which the DERP map pins.
 */
final class RelayTlsPort implements AutoCloseable {

    private final Undertow undertow;
    private final RelayCertificate certificate;
    private final String host;

    private RelayTlsPort(Undertow undertow, RelayCertificate certificate, String host) {
        this.undertow = undertow;
        this.certificate = certificate;
        this.host = host;
    }

    /** Binds {@code listen} (port 0: a free port); the relay's connections run on its one I/O thread. */
    static RelayTlsPort start(HostPort listen, String host, RelayCertificate certificate, HttpHandler relayEndpoints) {
        Undertow undertow = Undertow.builder()
                .addHttpsListener(listen.port(), listen.host(), certificate.serverContext())
                .setIoThreads(1)
                .setWorkerThreads(1)
                .setHandler(relayEndpoints)
                .build();
        try {
            undertow.start();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot listen for the relay's TLS port on " + listen + ": "
                    + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage()), e);
        }
        return new RelayTlsPort(undertow, certificate, host);
    }

    int port() {
        return ((InetSocketAddress) undertow.getListenerInfo().getFirst().getAddress()).getPort();
    }

    /** The host name the certificate is made for, and clients dial. */
    String host() {
        return host;
    }

    /** The pin clients check the certificate against. */
    String pin() {
        return certificate.pin();
    }

    @Override
    public void close() {
        undertow.stop();
    }
}
