package io.meshcontrol.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.testing.PackageCycles;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Core's packages depend on each other one way (shared/DESIGN.md, "Inside core"; docs/development.md, "Layout"). */
class PackageDependenciesTest {

    @Test
    void corePackagesFormNoCycle() {
        assertEquals(List.of(), PackageCycles.of(MeshException.class).cycles());
    }

    /** Map streaming builds on its sub-packages (session memory, encoding, frames), which need no map inputs. */
    @Test
    void netmapSubPackagesDoNotUseMapStreaming() {
        String netmap = "io.meshcontrol.core.netmap";
        Map<String, Set<String>> users = PackageCycles.of(MeshException.class).dependencies().entrySet().stream()
                .filter(entry -> entry.getKey().startsWith(netmap + ".") && entry.getValue().contains(netmap))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), users);
    }
}
