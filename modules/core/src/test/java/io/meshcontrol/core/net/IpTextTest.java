package io.meshcontrol.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Addresses, prefixes and endpoints read and write as Go's net/netip does. */
class IpTextTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "100.64.0.1,               100.64.0.1",
        "0.0.0.0,                  0.0.0.0",
        "::,                       ::",
        "::1,                      ::1",
        "FD7A:115C:A1E0::1,        fd7a:115c:a1e0::1",
        "2001:db8:0:0:1:0:0:1,     2001:db8::1:0:0:1",
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
        "2001:db8:0:1:1:1:1:1,     2001:db8:0:1:1:1:1:1",
        "1::,                      1::",
        "::ffff:1.2.3.4,           ::ffff:1.2.3.4",
        "::ffff:0102:0304,         ::ffff:1.2.3.4",
        "64:ff9b::1.2.3.4,         64:ff9b::102:304",
        "fe80::1%eth0,             fe80::1%eth0",
    })
    void addressesGetGosCanonicalText(String text, String canonical) {
        assertEquals(canonical, IpAddress.parse(text).toString());
        assertEquals(IpAddress.parse(text), IpAddress.parse(canonical));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.256", "1.2.3.4%eth0", "example.com",
        "1:2:3:4:5:6:7:8:9", "1::2::3", "1:2:3:4:5:6:7:8::", ":1", "1:", "12345::", "fe80::1%", "١.2.3.4", "::g"})
    void badAddressesAreRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> IpAddress.parse(text));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "100.64.0.1/32,         100.64.0.1/32",
        "10.0.0.1/8,            10.0.0.1/8",
        "0.0.0.0/0,             0.0.0.0/0",
        "::/0,                  ::/0",
        "FD7A:115C:A1E0::/48,   fd7a:115c:a1e0::/48",
    })
    void prefixesKeepTheirAddressBits(String text, String canonical) {
        assertEquals(canonical, IpPrefix.parse(text).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"100.64.0.1", "100.64.0.1/33", "::/129", "1.2.3.4/08", "1.2.3.4/", "1.2.3.4/-1",
        "fe80::1%eth0/64", "1.2.3.4/3x"})
    void badPrefixesAreRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> IpPrefix.parse(text));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "192.0.2.10:41641,          192.0.2.10:41641",
        "[2001:DB8::1]:41641,       [2001:db8::1]:41641",
        "[::ffff:1.2.3.4]:80,       [::ffff:1.2.3.4]:80",
        "[fe80::1%eth0]:0,          [fe80::1%eth0]:0",
    })
    void endpointsBracketIpv6(String text, String canonical) {
        assertEquals(canonical, IpAddressPort.parse(text).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"192.0.2.10", "192.0.2.10:65536", "2001:db8::1:80", "[192.0.2.1]:80", "[::1]:", ":80",
        "[::1]:8x"})
    void badEndpointsAreRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> IpAddressPort.parse(text));
    }
}
