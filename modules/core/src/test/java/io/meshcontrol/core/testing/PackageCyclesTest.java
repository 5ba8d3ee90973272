package io.meshcontrol.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.testing.cyclefixture.one.First;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PackageCyclesTest {

    private static final String ONE = "io.meshcontrol.core.testing.cyclefixture.one";
    private static final String TWO = "io.meshcontrol.core.testing.cyclefixture.two";
    private static final String THREE = "io.meshcontrol.core.testing.cyclefixture.three";

    private static PackageCycles fixture() throws Exception {
        return PackageCycles.in(Path.of(First.class.getProtectionDomain().getCodeSource().getLocation().toURI()),
                "io.meshcontrol.core.testing.cyclefixture");
    }

    @Test
    void findsACycleThroughAnImportAndAGenericSignature() throws Exception {
        PackageCycles packages = fixture();

        assertEquals(List.of(ONE + " -> " + TWO + " -> " + ONE + "   (packages in the cycle: [" + ONE + ", " + TWO + "])"),
                packages.cycles());
    }

    @Test
    void readsUsesFromTheBytecodeButNotFromStringConstants() throws Exception {
        PackageCycles packages = fixture();

        assertEquals(Map.of(ONE, Set.of(TWO), TWO, Set.of(ONE)),
                Map.of(ONE, packages.dependencies().get(ONE), TWO, packages.dependencies().get(TWO)));
        assertEquals(Set.of(), packages.dependencies().get(THREE));
    }
}
