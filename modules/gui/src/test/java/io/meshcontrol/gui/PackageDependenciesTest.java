package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.testing.PackageCycles;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The app's packages depend on each other one way: the root package is the app's shell (window, main view, launch),
 * which builds the screens; the screens share {@code gui.screen} and never reach back into the shell.
 */
class PackageDependenciesTest {

    private final PackageCycles packages = PackageCycles.of(AdminApp.class);

    @Test
    void guiPackagesFormNoCycle() {
        assertEquals(List.of(), packages.cycles());
    }

    @Test
    void noScreenUsesTheAppShell() {
        String root = AdminApp.class.getPackageName();
        Map<String, Object> users = packages.dependencies().entrySet().stream()
                .filter(entry -> entry.getValue().contains(root))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), users);
    }
}
