package io.meshcontrol.gui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bench/desktop-memory}: opens the window (headless, Monocle) on the bench server's local credential, shows
 * every screen once, and prints what the JVM holds: resident memory and the heap (the bench has the JVM print its
 * native memory by category at exit). Figures only; nothing is timed or asserted.
 */
public final class MemoryBench {

    private MemoryBench() {
    }

    public static void main(String[] args) throws Exception {
        Path credential = Path.of(args[0]);
        Path config = Files.createTempDirectory("svc-desktop-bench");
        RunningApp app = RunningApp.start(config, credential).connectLocally();
        for (String tab : List.of("Policy", "Keys", "Users, settings", "Access requests", "Webhooks", "Apps", "DNS",
                "Relays", "OAuth", "Audit log", "Machines")) {
            app.click(tab);
            app.await("no call under way", () -> app.robot.lookup("#progress").tryQuery()
                    .map(node -> !node.isVisible()).orElse(true));
        }
        app.await("every machine listed", () -> app.robot.lookup("#machines")
                .queryAs(javafx.scene.control.TableView.class).getItems().size() >= Integer.parseInt(args[1]));
        report("after every screen");
        System.gc();
        report("after a full GC");
        if (Boolean.getBoolean("bench.hold")) {
            System.out.println("holding " + ProcessHandle.current().pid());
            System.out.flush();
            System.in.read(); // for a look with jcmd (GC.class_histogram), until standard input closes
        }
        app.close();
        System.exit(0);
    }

    private static void report(String when) throws Exception {
        Runtime runtime = Runtime.getRuntime();
        String rss = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("VmRSS"))
                .findFirst().orElse("VmRSS: ?").replaceAll("\\s+", " ");
        System.out.printf("%s: %s; heap used %d MB, committed %d MB, max %d MB%n", when, rss,
                (runtime.totalMemory() - runtime.freeMemory()) >> 20, runtime.totalMemory() >> 20,
                runtime.maxMemory() >> 20);
    }
}
