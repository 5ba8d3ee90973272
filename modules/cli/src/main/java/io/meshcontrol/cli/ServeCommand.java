package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.server.Application;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;

/** Loads the configuration and starts the {@link Application}; SIGHUP and the shutdown hook are the CLI's part. */
@Command(name = "serve", description = "Run the server until stopped (Ctrl-C or SIGTERM).")
final class ServeCommand extends Subcommand implements Callable<Integer> {

    private static final System.Logger LOG = System.getLogger(ServeCommand.class.getName());

    /**
     * The start-up announcement. The server itself speaks plain HTTP only; an {@code https://} server_url is right
     * behind a TLS proxy, and then the line says both, so it never claims HTTPS for the listener.
     */
    static String readyLine(String tailnetId, URI listener, String serverUrl) {
        if (serverUrl.startsWith("https://")) {
            return "network " + tailnetId + " ready: serving plain HTTP on " + listener + "; clients reach it at "
                    + serverUrl + " (server_url), through a proxy that terminates TLS";
        }
        return "network " + tailnetId + " ready at " + serverUrl;
    }

    /**
     * What a new user does next, printed once the server is ready: the console's address and how to sign in, or the
     * CLI's way: a user, a key, the exact line to join with.
     */
    static String nextSteps(String serverUrl) {
        return String.join(System.lineSeparator(),
                "next steps (in another shell, on this machine):",
                "  the browser console:         " + serverUrl.replaceAll("/+$", "") + "/admin",
                "    sign in with an API key:   svc apikeys create --description console",
                "  or with the CLI:",
                "  1. create a user:            svc users create --name alice --role admin",
                "  2. create a key to join:     svc preauthkeys create --user alice",
                "  3. join each machine:        tailscale up --login-server=" + serverUrl + " --auth-key=<that key>",
                "  svc --help lists everything the CLI does");
    }

    /** The line added to the next steps when OIDC login is on: people sign in at the issuer, no key needed. */
    static String oidcLoginStep(String serverUrl, String issuer) {
        return "  OIDC login is on (" + issuer + "): tailscale up --login-server=" + serverUrl
                + " without a key, or the console's sign-in, sends people to the issuer";
    }

    @Override
    public Integer call() throws InterruptedException {
        CliContext context = context();
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(root().config, context.env(), context.workingDir(),
                context.homeDir()));
        if (!loaded.valid()) {
            loaded.errors().forEach(problem -> context.note("svc: config: " + problem));
            context.note("svc: not starting: fix the configuration (svc configtest lists every problem)");
            return Svc.FAILED;
        }
        MeshConfig config = loaded.config();
        LogSetup.configure(config.log().level());
        LOG.log(Level.INFO, "svc " + Svc.version() + " starting with "
                + loaded.source().map(p -> "configuration " + p).orElse("built-in defaults (no config file)"));
        loaded.warnings().forEach(warning -> LOG.log(Level.WARNING, warning));

        Application application;
        try {
            application = Application.start(config, Application.Launch.of(Svc.version()));
        } catch (Application.PolicyFileRejected e) {
            context.note("svc: " + e.getMessage());
            context.note("svc: not starting: fix the policy file (svc policy simulate checks it offline)");
            return Svc.FAILED;
        }
        application.policyFile().ifPresent(file -> {
            // SIGHUP needs jdk.unsupported, which only the command line requires.
            ReloadSignal.onHangup(application::reloadPolicy);
            LOG.log(Level.INFO, "policy read from " + file + "; reloaded when it changes and on SIGHUP");
        });
        LOG.log(Level.INFO, readyLine(application.network().tailnetId(), application.server().localUrl(),
                config.serverUrl()));
        nextSteps(config.serverUrl()).lines().forEach(line -> LOG.log(Level.INFO, line));
        config.oidc().issuer().ifPresent(issuer -> LOG.log(Level.INFO, oidcLoginStep(config.serverUrl(), issuer)));

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
