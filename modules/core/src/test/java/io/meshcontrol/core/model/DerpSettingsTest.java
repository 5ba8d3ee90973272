package io.meshcontrol.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DerpSettingsTest {

    private static DerpSettings with(List<String> urls, String ipv4, String stun, List<DerpSettings.CustomRelay> relays) {
        return new DerpSettings(urls, true, Duration.ofHours(24), true, ipv4, null, true, true, stun, relays);
    }

    private static String refusal(DerpSettings settings) {
        return assertThrows(MeshException.class, () -> settings.validated(999)).getMessage();
    }

    @ParameterizedTest
    @ValueSource(strings = {"relay.example.com", "derp1", "192.0.2.1", "2001:db8::1", "[2001:db8::1]", "a-b.example."})
    void validHttpHosts(String host) {
        assertTrue(DerpSettings.isHttpHost(host), host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bad host", "under_score.example", "-lead.example", "300.1.1.1", "http://x.example",
            "x.example:443", "a..b"})
    void invalidHttpHosts(String host) {
        assertFalse(DerpSettings.isHttpHost(host), host);
    }

    @Test
    void refusalsNameTheProblem() {
        assertTrue(refusal(with(List.of(), null, "0.0.0.0:3478", List.of(new DerpSettings.CustomRelay(900, "x",
                "bad host", null)))).contains("\"bad host\""));
        assertTrue(refusal(with(List.of("ftp://maps.example/m.json"), null, "0.0.0.0:3478", List.of()))
                .contains("ftp://maps.example/m.json"));
        assertTrue(refusal(with(List.of(), "2001:db8::1", "0.0.0.0:3478", List.of())).contains("ipv4"));
        assertTrue(refusal(with(List.of(), null, "no-port", List.of())).contains("stunListenAddr"));
        assertTrue(refusal(with(List.of(), null, "0.0.0.0:3478", List.of(new DerpSettings.CustomRelay(999, "x",
                "a.example", null)))).contains("embedded"));
        assertTrue(refusal(with(List.of(), null, "0.0.0.0:3478", List.of(
                new DerpSettings.CustomRelay(900, "x", "a.example", null),
                new DerpSettings.CustomRelay(900, "y", "b.example", null)))).contains("twice"));
        assertTrue(refusal(new DerpSettings(List.of(), true, Duration.ofSeconds(5), true, null, null, true, true,
                "0.0.0.0:3478", List.of())).contains("at least 1 minute"));
    }

    @Test
    void validSettingsPass() {
        DerpSettings ok = with(List.of("https://u:p@maps.example/derp.json?x=1"), "none", "127.0.0.1:0",
                List.of(new DerpSettings.CustomRelay(900, "home", "relay.example.com", "192.0.2.7")));
        assertEquals(ok, ok.validated(999));
    }

    @Test
    void redactedMapUrlsDropUserInfoQueryAndFragment() {
        assertEquals("https://maps.example:8443/derp.json",
                DerpSettings.redactedUrl("https://u:p@maps.example:8443/derp.json?key=1#x"));
        assertEquals("(unparseable URL)", DerpSettings.redactedUrl("not a url"));
    }
}
