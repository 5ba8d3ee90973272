package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpAddressesTest {

    @ParameterizedTest(name = "{0} is {1} bytes")
    @CsvSource({"100.64.0.1, 4", "0.0.0.0, 4", "255.255.255.255, 4", "::1, 16", "fd7a:115c:a1e0::1, 16",
            "::ffff:192.0.2.1, 16", "2001:DB8::7, 16"})
    void parsesLiterals(String text, int length) {
        assertEquals(length, IpAddresses.parse(text).orElseThrow().length);
    }

    @ParameterizedTest(name = "\"{0}\" is not an IP literal")
    @ValueSource(strings = {"", "1.2.3", "01.2.3.4", "256.1.1.1", "1.2.3.4.5", "localhost", "example.com", "::1%eth0",
            "[::1]", "1:2:3:4:5:6:7:8:9", ".:1", "fd7a:115c:a1e0::/48"})
    void refusesEverythingElseWithoutLookingItUp(String text) {
        assertTrue(IpAddresses.parse(text).isEmpty());
    }

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
            "100.64.0.0/10, 100.64.0.0/10, true",
            "100.64.0.0/10, 100.100.0.0/16, true",
            "100.64.0.0/10, 100.128.0.0/16, false",
            "100.64.0.0/10, 100.0.0.0/8, false",
            "fd7a:115c:a1e0::/48, fd7a:115c:a1e0:ab12::/64, true",
            "fd7a:115c:a1e0::/48, fd7a:115c:a1e1::/64, false",
            "100.64.0.0/10, fd7a:115c:a1e0::/48, false",
    })
    void prefixContainment(String outer, String inner, boolean contains) {
        assertEquals(contains, IpPrefix.parse(outer).contains(IpPrefix.parse(inner)));
    }

    @ParameterizedTest(name = "{0} is not canonical")
    @ValueSource(strings = {"100.64.0.1/10", "fd7a:115c:a1e0::1/48"})
    void hostBitsAreNoticed(String text) {
        assertFalse(IpPrefix.parse(text).isCanonical());
    }
}
