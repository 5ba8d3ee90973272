package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** svc admin opens the desktop app (tested in the gui module); without a display it says so in one line. */
class AdminCliTest {

    @TempDir
    Path folder;

    @Test
    void withoutADisplayItExplainsInsteadOfFailingInJavaFx() {
        CliRun run = CliRun.run(folder, Map.of(), "admin");
        assertEquals(1, run.exitCode(), run.toString());
        assertEquals("svc: svc admin opens a window, but there is no display here (neither DISPLAY nor WAYLAND_DISPLAY"
                + " is set); use the other svc commands, or run it on a desktop", run.err().strip());
    }
}
