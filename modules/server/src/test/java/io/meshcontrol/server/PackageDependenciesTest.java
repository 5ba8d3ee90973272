package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.testing.PackageCycles;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The server's packages depend on each other one way, and the root package, the composition root ({@link Application},
 * {@link MeshServer}, {@link ServerSettings}), is used by none of them: it wires them, they never reach back.
 */
class PackageDependenciesTest {

    private final PackageCycles packages = PackageCycles.of(Application.class);

    @Test
    void serverPackagesFormNoCycle() {
        assertEquals(List.of(), packages.cycles());
    }

    @Test
    void noPackageUsesTheCompositionRoot() {
        String root = Application.class.getPackageName();
        Map<String, Object> users = packages.dependencies().entrySet().stream()
                .filter(entry -> entry.getValue().contains(root))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), users);
    }
}
