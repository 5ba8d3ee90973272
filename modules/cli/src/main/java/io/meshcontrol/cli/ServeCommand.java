package io.meshcontrol.cli;

import io.meshcontrol.core.DatabaseUnreachable;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.server.Application;
import io.meshcontrol.server.ConfiguredFiles;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;

/** Loads the configuration and starts the {@link Application}; SIGHUP and the shutdown hook are the CLI's part. */
@Command(name = "serve", description = "Run the server until stopped (Ctrl-C or SIGTERM).")
final class ServeCommand extends Subcommand implements Callable<Integer> {

    private static final System.Logger LOG = System.getLogger(ServeCommand.class.getName());

    /**
     * The start-up announcement. Serving plain HTTP with an {@code https://} server_url is right behind a TLS proxy,
     * and then the line says both, so it never claims HTTPS for a plain listener; with a certificate the server
     * serves HTTPS itself and says so.
     */
    static String readyLine(String tailnetId, URI listener, String serverUrl) {
        if ("https".equals(listener.getScheme())) {
            return "network " + tailnetId + " ready: serving HTTPS on " + listener + "; clients reach it at "
                    + serverUrl + " (server_url)";
        }
        if (serverUrl.startsWith("https://")) {
            return "network " + tailnetId + " ready: serving plain HTTP on " + listener + "; clients reach it at "
                    + serverUrl + " (server_url), through a proxy that terminates TLS";
        }
        return "network " + tailnetId + " ready at " + serverUrl;
    }

    /**
     * What a new user does next, printed once the server is ready while the network still lacks users or machines:
     * the console's address and how to sign in, or the CLI's way: a user, a reusable key, the exact line to join
     * each machine with. {@code command} is the CLI as the user started it ({@link CliContext#commandName()}), so
     * every line works as printed.
     */
    static String nextSteps(String command, String serverUrl) {
        return String.join(System.lineSeparator(),
                "next steps (in another shell, on this machine):",
                "  the browser console:         " + serverUrl.replaceAll("/+$", "") + "/admin",
                "    sign in with an API key:   " + command + " apikeys create --description console",
                "  or with the CLI:",
                "  1. create a user:            " + command + " users create --name alice --role admin",
                "  2. create a key to join:     " + command + " preauthkeys create --user alice --reusable",
                "  3. join each machine:        tailscale up --login-server=" + serverUrl + " --auth-key=<that key>",
                "  " + command + " --help lists everything the CLI does");
    }

    /** Whether a network is new enough to need {@link #nextSteps}: it has no users or no machines yet. */
    static boolean needsFirstSteps(NetworkSnapshot network) {
        return network.users().isEmpty() || network.nodes().isEmpty();
    }

    /** The line added to the next steps when OIDC login is on: people sign in at the issuer, no key needed. */
    static String oidcLoginStep(String serverUrl, String issuer) {
        return "  OIDC login is on (" + issuer + "): tailscale up --login-server=" + serverUrl
                + " without a key, or the console's sign-in, sends people to the issuer";
    }

    @Override
    public Integer call() throws InterruptedException {
        CliContext context = context();
        root().configFile(); // a named file that is missing is the one error
        LoadedConfig loaded = ConfigLoader.load(root().configRequest());
        List<ConfigProblem> problems = new ArrayList<>(loaded.errors());
        if (loaded.valid()) {
            problems.addAll(ConfiguredFiles.problems(loaded.config()));
        }
        if (!problems.isEmpty()) {
            problems.forEach(problem -> context.note("svc: config: " + problem));
            context.note("svc: not starting: fix the configuration (" + context.commandName()
                    + " configtest lists every problem)");
            return Svc.FAILED;
        }
        MeshConfig config = loaded.config();
        LogSetup.configure(config.log().level(), config.log().format());
        LOG.log(Level.INFO, "svc " + Svc.version() + " starting with "
                + loaded.source().map(p -> "configuration " + p).orElse("built-in defaults (no config file)"));
        loaded.warnings().forEach(warning -> LOG.log(Level.WARNING, warning));

        Application application;
        try {
            application = Application.start(config, Application.Launch.of(Svc.version()));
        } catch (Application.PolicyFileRejected e) {
            context.note("svc: " + e.getMessage());
            context.note("svc: not starting: fix the policy file (" + context.commandName()
                    + " policy simulate checks it offline)");
            return Svc.FAILED;
        } catch (DatabaseUnreachable e) {
            context.note("svc: " + e.getMessage());
            context.note("svc: not starting: check database.postgres.* and that the server is up");
            return Svc.FAILED;
        }
        if (application.reloadable()) {
            // SIGHUP needs jdk.unsupported, which only the command line requires.
            ReloadSignal.onHangup(application::reload);
        }
        application.policyFile().ifPresent(file -> LOG.log(Level.INFO, "policy read from " + file
                + "; reloaded when it changes and on SIGHUP"));
        application.network().policies().locations().file().ifPresent(file -> LOG.log(Level.INFO,
                "location database " + file + "; reread on SIGHUP"));
        LOG.log(Level.INFO, readyLine(application.network().tailnetId(), application.server().localUrl(),
                config.serverUrl()));
        if (needsFirstSteps(application.network().snapshots().current())) {
            nextSteps(context.commandName(), config.serverUrl()).lines().forEach(line -> LOG.log(Level.INFO, line));
            config.oidc().issuer().ifPresent(issuer -> LOG.log(Level.INFO, oidcLoginStep(config.serverUrl(), issuer)));
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.log(Level.INFO, "stopping");
            application.close();
            stopped.countDown();
        }, "svc-shutdown"));
        stopped.await();
        return 0;
    }
}
