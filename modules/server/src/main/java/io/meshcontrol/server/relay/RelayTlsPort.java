package io.meshcontrol.server.relay;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.relay.tls.RelayCertificate;
import io.meshcontrol.server.listener.PublicListener;
import io.undertow.server.HttpHandler;
import java.io.UncheckedIOException;
import org.xnio.OptionMap;

/**
 * The relay's own TLS port, for a server reached over plain HTTP: stock clients speak DERP over TLS only, so they
 * cannot use {@code /derp} on an {@code http://} listener. It serves the relay's endpoints and nothing else, with the
 * relay's self-signed certificate, which the DERP map pins, under the same timeouts and per-address cap as the main
 * listener.
 */
final class RelayTlsPort implements AutoCloseable {

    private final PublicListener listener;
    private final RelayCertificate certificate;
    private final String host;

    private RelayTlsPort(PublicListener listener, RelayCertificate certificate, String host) {
        this.listener = listener;
        this.certificate = certificate;
        this.host = host;
    }

    /**
     * Binds {@code derp.server.tls_listen_addr} (port 0: a free port); the relay's connections run on its one I/O
     * thread.
     */
    static RelayTlsPort start(RelaySettings config, String host, RelayCertificate certificate,
            HttpHandler relayEndpoints) {
        HostPort listen = HostPort.parse(config.tlsListenAddr());
        try {
            return new RelayTlsPort(PublicListener.start(new PublicListener.Setup(listen.host(), listen.port(),
                    certificate.serverContext(), relayEndpoints, OptionMap.EMPTY, 1, config.tlsListener())),
                    certificate, host);
        } catch (UncheckedIOException e) {
            throw new IllegalStateException("cannot listen for the relay's TLS port on " + listen + ": "
                    + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage()), e);
        }
    }

    int port() {
        return listener.address().getPort();
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
        listener.close();
    }
}
