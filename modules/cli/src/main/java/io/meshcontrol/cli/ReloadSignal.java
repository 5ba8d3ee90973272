package io.meshcontrol.cli;

import java.lang.System.Logger.Level;

/**
 * SIGHUP handling: operators reload a service's configuration with {@code systemctl reload} or {@code kill -HUP}.
 * The JDK has no supported signal API, so this uses {@code sun.misc.Signal} from the {@code jdk.unsupported}
 * module, which every JDK and jlink image that includes that module provides. Where the platform has no SIGHUP
 * (Windows), the hook is skipped with a log line.
 */
final class ReloadSignal {

    private static final System.Logger LOG = System.getLogger(ReloadSignal.class.getName());

    private ReloadSignal() {
    }

    static void onHangup(Runnable action) {
        try {
            sun.misc.SignalHandler before = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> {
                LOG.log(Level.INFO, "SIGHUP: reloading the policy file and the location database, those configured");
                action.run();
            });
            if (before == sun.misc.SignalHandler.SIG_IGN) {
                // Inherited (nohup, some supervisors): the JVM keeps ignoring it and the handler never runs.
                LOG.log(Level.WARNING, "SIGHUP is ignored in this process (started with nohup?): the policy file "
                        + "is reloaded when it changes, not on SIGHUP");
            }
        } catch (IllegalArgumentException unsupported) {
            LOG.log(Level.INFO, "no SIGHUP on this platform; the policy file is still reloaded when it changes");
        }
    }
}
