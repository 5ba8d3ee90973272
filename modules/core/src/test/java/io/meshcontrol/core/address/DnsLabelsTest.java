package io.meshcontrol.core.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.MeshException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DnsLabelsTest {

    @ParameterizedTest
    @CsvSource({"My Laptop, my-laptop", "web_01.lan, web-01-lan", "---, node", "ÄÖÜ-box, box", "'', node"})
    void hostnamesBecomeLabels(String hostname, String label) {
        assertEquals(label, DnsLabels.fromHostname(hostname));
    }

    @Test
    void takenNamesGetANumber() {
        assertEquals("web-2", DnsLabels.unique("web", Set.of("web", "web-1")::contains));
    }

    @Test
    void invalidNamesAreRefused() {
        assertThrows(MeshException.class, () -> DnsLabels.requireValid("Bad Name"));
        assertThrows(MeshException.class, () -> DnsLabels.requireValid("-x"));
        assertEquals("ok-1", DnsLabels.requireValid("ok-1"));
    }
}
