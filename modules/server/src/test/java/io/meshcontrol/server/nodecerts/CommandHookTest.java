package io.meshcontrol.server.nodecerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command hook runs its program with the action, name and value as arguments, no shell, and judges its exit. */
class CommandHookTest {

    private static final TxtRecord RECORD = new TxtRecord("_acme-challenge.web.mesh.test",
            "LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0");

    @TempDir
    Path folder;

    private Path script(String body) throws IOException {
        Path script = Files.writeString(folder.resolve("hook.sh"), "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    void presentAndCleanupGetTheNameAndValueAsArguments() throws Exception {
        Path log = folder.resolve("calls");
        CommandHook hook = new CommandHook(script("printf '%s|' \"$@\" >> '" + log + "'; echo >> '" + log + "'"),
                Duration.ofSeconds(10));
        hook.publish(RECORD);
        hook.remove(RECORD);
        assertEquals(List.of("present|" + RECORD.name() + "|" + RECORD.value() + "|",
                "cleanup|" + RECORD.name() + "|" + RECORD.value() + "|"), Files.readAllLines(log));
    }

    @Test
    void aFailingProgramIsAFailureEndingWithItsLastLine() throws Exception {
        CommandHook hook = new CommandHook(script("echo working; echo 'API token expired' >&2; exit 4"),
                Duration.ofSeconds(10));
        IOException failed = assertThrows(IOException.class, () -> hook.publish(RECORD));
        assertTrue(failed.getMessage().endsWith("present " + RECORD.name() + " exited with 4: API token expired"),
                failed.getMessage());
    }

    @Test
    void aProgramThatRunsTooLongIsKilled() throws Exception {
        CommandHook hook = new CommandHook(script("exec sleep 30"), Duration.ofSeconds(1));
        IOException failed = assertThrows(IOException.class, () -> hook.remove(RECORD));
        assertTrue(failed.getMessage().endsWith("did not finish within PT1S (https_certificates.command.timeout) "
                + "and was killed"), failed.getMessage());
    }
}
