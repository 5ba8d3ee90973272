package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The home folder is $HOME, as for every other program, not the account's entry in the password database. */
class HomeFolderCliTest {

    @TempDir
    Path folder;

    @Test
    void theConfigurationInHomeIsFoundThroughTheHomeVariable() throws Exception {
        Path home = Files.createDirectories(folder.resolve("elsewhere/.svc")).getParent();
        Path config = Files.writeString(home.resolve(".svc/config.yaml"), "log:\n  level: debug\n");
        Path work = Files.createDirectories(folder.resolve("work"));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Svc.class.getName(), "configtest").directory(work.toFile()).redirectError(folder.resolve("err.txt").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("SVC_"));
        builder.environment().put("HOME", home.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = process.waitFor() + " " + Files.readString(folder.resolve("err.txt"));
        assertEquals(List.of(config + ": configuration is valid"), output.lines().toList(), errors);
    }
}
