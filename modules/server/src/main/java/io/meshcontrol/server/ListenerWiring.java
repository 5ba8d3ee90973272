package io.meshcontrol.server;

import io.meshcontrol.server.http.ApiStyle;
import io.meshcontrol.server.http.ApiStyles;
import io.meshcontrol.server.http.Authenticator;
import io.meshcontrol.server.http.FailedCredentials;
import io.meshcontrol.server.http.ProblemWriter;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.listener.PublicListener;
import io.meshcontrol.server.tls.Https;
import io.meshcontrol.server.v2.VendorAuthentication;
import io.meshcontrol.server.v2.VendorErrors;
import io.undertow.UndertowOptions;
import org.xnio.OptionMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * The main listener: every route behind the one request pipeline, each API in its own style, over HTTPS when
 * {@link Https} has a certificate source (then the relay is on {@code server_url} too).
 */
final class ListenerWiring {

    private ListenerWiring() {
    }

    /** @param credentials what a request's bearer credential or session is checked against */
    static PublicListener.Setup main(Wiring w, Https https, RequestPipeline pipeline, Authenticator credentials) {
        ServerSettings settings = w.settings();
        JsonMapper json = w.json();
        return new PublicListener.Setup(settings.listenHost(), settings.listenPort(), https.context(),
                w.routes().build(pipeline, apiStyles(credentials, json, w.failedCredentials()), json,
                        settings.version()),
                OptionMap.builder()
                        .set(UndertowOptions.MAX_ENTITY_SIZE, Routes.LISTENER_ENTITY_LIMIT)
                        .getMap(),
                Math.max(Runtime.getRuntime().availableProcessors(), 2), settings.listener());
    }

    /**
     * {@code /api/v1}: problem details and bearer keys; {@code /api/v2}: the vendor's error shape and credentials.
     * Failed credentials count towards their address's back-off on both.
     */
    private static ApiStyles apiStyles(Authenticator credentials, JsonMapper json, FailedCredentials failures) {
        return new ApiStyles(new ApiStyle(new ProblemWriter(json), failures.guarding(credentials)),
                new ApiStyle(new VendorErrors(json), failures.guarding(new VendorAuthentication(credentials))));
    }
}
