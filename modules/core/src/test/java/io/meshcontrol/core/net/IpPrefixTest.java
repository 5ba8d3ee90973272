package io.meshcontrol.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What the routes, the policy and the configuration ask of a prefix: containment and its masked form. */
class IpPrefixTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
        "10.0.0.0/8,            10.20.0.0/16,             true",
        "10.0.0.0/8,            10.0.0.0/8,               true",
        "10.20.0.0/16,          10.0.0.0/8,               false",
        "10.0.0.0/8,            11.0.0.0/16,              false",
        "100.64.0.0/10,         100.128.0.0/16,           false",
        "0.0.0.0/0,             fd00::/64,                false",
        "100.64.0.0/10,         fd7a:115c:a1e0::/48,      false",
        "fd00::/48,             fd00:0:0:5::/64,          true",
        "fd7a:115c:a1e0::/48,   fd7a:115c:a1e1::/64,      false",
        "10.0.0.1/8,            10.9.0.0/16,              true",
    })
    void containment(String outer, String inner, boolean contains) {
        assertEquals(contains, IpPrefix.parse(outer).contains(IpPrefix.parse(inner)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "100.64.0.1/10,          100.64.0.0/10",
        "10.0.0.255/25,          10.0.0.128/25",
        "fd7a:115c:a1e0::1/48,   fd7a:115c:a1e0::/48",
        "1.2.3.4/0,              0.0.0.0/0",
    })
    void maskingClearsTheBitsBeyondTheLength(String text, String masked) {
        assertEquals(masked, IpPrefix.parse(text).masked().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"100.64.0.0/10", "1.2.3.4/32", "::/0"})
    void aMaskedPrefixIsItsOwnMaskedForm(String text) {
        IpPrefix prefix = IpPrefix.parse(text);
        assertSame(prefix, prefix.masked());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1.2.3", "01.2.3.4", "localhost", "[::1]", ".:1"})
    void tryParseAnswersEmptyForWhatIsNoAddress(String text) {
        assertEquals(Optional.empty(), IpAddress.tryParse(text));
    }
}
