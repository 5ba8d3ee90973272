package io.meshcontrol.core.netmap.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReleaseVersionsTest {

    @ParameterizedTest
    @CsvSource({"1.80.3, 1.102.5, -1", "1.102.5, 1.102.5, 0", "1.102.10, 1.102.9, 1", "1.90, 1.90.0, 0",
            "2.0.0, 1.999.999, 1", "1.90.0rc1, 1.90.0, 0"})
    void releasesAreOrderedNumericallyPartByPart(String a, String b, int sign) {
        assertEquals(sign, Integer.signum(ReleaseVersions.compare(a, b)));
    }
}
