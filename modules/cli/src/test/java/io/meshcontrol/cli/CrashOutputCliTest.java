package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers start the JVM with descriptor 1 on stderr and the command's output on descriptor 3
 * ({@code SVC_STDOUT_FD}, scripts/client-jvm.sh): the output still reaches stdout, and the banner HotSpot prints on
 * descriptor 1 when it crashes does not.
 */
class CrashOutputCliTest {

    @TempDir
    Path folder;

    private record Run(int exitCode, String out, String err) {
    }

    /** {@code svc args} as the launchers start it: {@code 3>&1 1>&2}, {@code SVC_STDOUT_FD=3}, java.io opened. */
    private Run launched(String jvmFlags, String args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = "exec '" + java + "' --enable-native-access=ALL-UNNAMED "
                + jvmFlags + " -cp '" + System.getProperty("java.class.path") + "' " + Svc.class.getName() + " " + args
                + " 3>&1 1>&2";
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(folder.toFile())
                .redirectOutput(folder.resolve("out.txt").toFile()).redirectError(folder.resolve("err.txt").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("SVC_"));
        builder.environment().put("SVC_STDOUT_FD", "3");
        int code = builder.start().waitFor();
        return new Run(code, Files.readString(folder.resolve("out.txt")), Files.readString(folder.resolve("err.txt")));
    }

    @Test
    void aCommandsOutputReachesStdoutThroughTheDescriptorTheLauncherNames() throws Exception {
        Run run = launched("", "version");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("svc " + Svc.version() + "\n", run.out(), run.err());
    }

    @Test
    void theBannerOfAJvmCrashStaysOffStdout() throws Exception {
        // A diagnostic flag makes the JVM die as on a crash when the CLI refuses an unknown command.
        Run run = launched("-XX:+UnlockDiagnosticVMOptions "
                + "-XX:AbortVMOnException='picocli.CommandLine$UnmatchedArgumentException' "
                + "-XX:ErrorFile='" + folder.resolve("hs_err_pid%p.log") + "'", "no-such-command");
        assertEquals("", run.out());
        assertTrue(run.err().contains("# A fatal error has been detected by the Java Runtime Environment"), run.err());
        assertTrue(run.exitCode() != 0 && run.exitCode() != Svc.USAGE, "exit " + run.exitCode());
    }
}
