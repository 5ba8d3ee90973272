package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostPortTest {

    @ParameterizedTest(name = "{0} is host \"{1}\" port {2}")
    @CsvSource({
            "127.0.0.1:8080,       127.0.0.1,      8080",
            "0.0.0.0:3478,         0.0.0.0,        3478",
            ":8080,                '',             8080",
            "[::1]:9090,           ::1,            9090",
            "[fd7a:115c::1]:443,   fd7a:115c::1,   443",
            "localhost:0,          localhost,      0",
            "mesh.example.com:65535, mesh.example.com, 65535",
            ":http,                '',             80",
            ":https,               '',             443",
    })
    void parsesListenAddresses(String text, String host, int port) {
        HostPort parsed = HostPort.parse(text);
        assertEquals(new HostPort(host, port), parsed);
    }

    @ParameterizedTest(name = "\"{0}\" is refused: {1}")
    @CsvSource({
            "8080,                 must be host:port",
            "127.0.0.1,            must be host:port",
            "::1:8080,             brackets",
            "[::1],                must be host:port",
            "[nothost]:80,         invalid IPv6",
            "127.0.0.1:65536,      port from 0 to 65535",
            "127.0.0.1:-1,         port from 0 to 65535",
            "127.0.0.1:ssh,        port from 0 to 65535",
            "bad_host:80,          invalid host",
            "300.1.1.1:80,         invalid host",
            "'',                   must be host:port",
    })
    void refusesMalformedAddressesSayingWhy(String text, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostPort.parse(text));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @ParameterizedTest(name = "{0} prints as {0}")
    @CsvSource({"127.0.0.1:8080", "[::1]:9090", ":443"})
    void printsInTheFormItParses(String text) {
        assertEquals(text, HostPort.parse(text).toString());
    }
}
