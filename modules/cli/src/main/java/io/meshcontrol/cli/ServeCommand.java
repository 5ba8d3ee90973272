package io.meshcontrol.cli;

import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.PolicyFileWatcher;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.store.Database;
import io.meshcontrol.server.MeshServer;
import io.meshcontrol.server.ServerSettings;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;

@Command(name = "serve", description = "Run the server until stopped (Ctrl-C or SIGTERM).")
final class ServeCommand extends Subcommand implements Callable<Integer> {

    private static final System.Logger LOG = System.getLogger(ServeCommand.class.getName());

    static NetworkOptions networkOptions(MeshConfig config) {
        AddressPool.Allocation allocation = config.prefixes().allocation() == MeshConfig.Prefixes.Allocation.RANDOM
                ? AddressPool.Allocation.RANDOM : AddressPool.Allocation.SEQUENTIAL;
        return new NetworkOptions(config.prefixes().v4(), config.prefixes().v6(), allocation, config.node().expiry(),
                config.node().routes().ha());
    }

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

    @Override
    public Integer call() throws InterruptedException {
        CliContext context = context();
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(root().config, context.env(), context.workingDir(),
                context.homeDir()));
        if (!loaded.valid()) {
            loaded.errors().forEach(problem -> context.err().println("svc: config: " + problem));
            context.err().println("svc: not starting: fix the configuration (svc configtest lists every problem)");
            return Svc.FAILED;
        }
        MeshConfig config = loaded.config();
        LogSetup.configure(config.log().level());
        LOG.log(Level.INFO, "svc " + Svc.version() + " starting with "
                + loaded.source().map(p -> "configuration " + p).orElse("built-in defaults (no config file)"));
        loaded.warnings().forEach(warning -> LOG.log(Level.WARNING, warning));

        Clock clock = Clock.systemUTC();
        Database database = Database.open(config.database().sqlite().path(), config.database().sqlite().writeAheadLog());
        Network network = new Network(database, clock, networkOptions(config));
        PolicyFileWatcher watcher = null;
        if (config.policy().mode() == MeshConfig.Policy.Mode.FILE) {
            Path file = config.policy().path().orElseThrow();
            try {
                network.policies().useFile(file);
            } catch (MeshException e) {
                context.err().println("svc: " + e.getMessage());
                context.err().println("svc: not starting: fix the policy file (svc policy simulate checks it offline)");
                return Svc.FAILED;
            }
            watcher = PolicyFileWatcher.start(network.policies());
            ReloadSignal.onHangup(network.policies()::reload);
            LOG.log(Level.INFO, "policy read from " + file + "; reloaded when it changes and on SIGHUP");
        }
        MeshServer server = MeshServer.start(ServerSettings.from(config, Svc.version()), network, clock);
        LOG.log(Level.INFO, readyLine(network.tailnetId(), server.localUrl(), config.serverUrl()));

        CountDownLatch stopped = new CountDownLatch(1);
        PolicyFileWatcher policyWatcher = watcher;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.log(Level.INFO, "stopping");
            if (policyWatcher != null) {
                policyWatcher.close();
            }
            server.close();
            stopped.countDown();
        }, "svc-shutdown"));
        stopped.await();
        return 0;
    }
}
