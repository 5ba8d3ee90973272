package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The URL a router answers its probe at (issue 33 item 16); the probing itself is in {@link MapSessionTest}. */
class RouterProbesTest {

    /**
     * 1.102 clients send an {@code http://} URL over their Noise connection only when its host and port are those
     * they logged in at; any other goes out as plain HTTP/2, which the server's listener does not speak. An
     * {@code https://} URL always goes over Noise, to the server they logged in at.
     */
    @Test
    void theAnswerUrlIsHttpsWhateverTheServerUrlsScheme() {
        assertEquals("https://localhost:8080/machine/ping-response?id=",
                RouterProbes.answerUrl("http://localhost:8080/"));
        assertEquals("https://mesh.example.com/machine/ping-response?id=",
                RouterProbes.answerUrl("https://mesh.example.com"));
        assertEquals("https://[::1]:8080/machine/ping-response?id=", RouterProbes.answerUrl("http://[::1]:8080"));
    }
}
