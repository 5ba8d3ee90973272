package io.meshcontrol.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.testing.PackageCycles;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Core's packages depend on each other one way (shared/DESIGN.md, "Inside core"). */
class PackageDependenciesTest {

    @Test
    void corePackagesFormNoCycle() {
        assertEquals(List.of(), PackageCycles.of(MeshException.class).cycles());
    }
}
