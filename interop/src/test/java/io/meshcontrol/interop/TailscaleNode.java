package io.meshcontrol.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One real {@code tailscaled} in userspace-networking mode (no root, no TUN), driven through its own
 * {@code tailscale} CLI on a private LocalAPI socket.
 *
 * <p>The daemon runs as {@code tailscaled --tun=userspace-networking --statedir=<work>/<name>
 * --socket=<work>/<name>/sock --port=0 --no-logs-no-support --socks5-server=127.0.0.1:0} in a cleared
 * environment that keeps it on this machine: log upload off, port mapping off, network assumed up, c2n
 * allowed over plain HTTP, a panic if it is ever pointed at Tailscale's own control plane, and every HTTP(S)
 * proxy variable aimed at a {@link TrafficTrap} on loopback (with 127.0.0.1 and localhost exempt, so a test
 * control server there is reached directly). Its output goes to {@link #logFile()}; CLI transcripts to
 * {@link #cliLogFile()}.
 *
 * <p>Always close a node (try-with-resources or {@link TailscaleNodes}); a JVM shutdown hook kills whatever
 * is left regardless.
 */
public final class TailscaleNode implements AutoCloseable {

    /** Default limit for CLI commands that talk to control ({@code up}, {@code logout}, {@code ping}). */
    public static final Duration CLI_TIMEOUT = Duration.ofSeconds(60);
    static final Duration STATUS_TIMEOUT = Duration.ofSeconds(15);
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    /** sockaddr_un.sun_path is 108 bytes on Linux, including the terminating NUL. */
    private static final int MAX_SOCKET_PATH = 107;
    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** tailscaled logs this once its SOCKS5 listener is bound (cmd/tailscaled, 1.80 through 1.104). */
    private static final Pattern SOCKS_LISTENING = Pattern.compile("SOCKS5 listening on 127\\.0\\.0\\.1:(\\d+)");

    private final String name;
    private final ClientBinaries binaries;
    private final Path stateDir;
    private final Path socket;
    private final Path logFile;
    private final Path cliLogFile;
    private final List<String> extraDaemonArgs;
    private final List<String> launcher;
    private final TrafficTrap trap = new TrafficTrap();
    private final Map<String, String> environment;
    private final List<InteractiveLogin> interactiveLogins = new CopyOnWriteArrayList<>();

    private Process daemon; // guarded by this
    private int socksPort; // guarded by this
    private boolean closed; // guarded by this

    private TailscaleNode(Builder builder) {
        this.name = builder.name;
        this.binaries = builder.binaries;
        this.stateDir = builder.workDir.resolve(name).toAbsolutePath();
        this.socket = stateDir.resolve("sock");
        this.logFile = builder.logDir.resolve(name + ".tailscaled.log").toAbsolutePath();
        this.cliLogFile = builder.logDir.resolve(name + ".cli.log").toAbsolutePath();
        this.extraDaemonArgs = List.copyOf(builder.daemonArgs);
        this.launcher = List.copyOf(builder.launcher);
        this.environment = closedNetworkEnvironment(builder.env);
    }

    /** Starts a node for {@code version} with state under {@code workDir} and logs beside it. */
    public static TailscaleNode start(ClientVersion version, String name, Path workDir) {
        return builder(ClientBinaries.of(version), name).workDir(workDir).start();
    }

    public static Builder builder(ClientBinaries binaries, String name) {
        return new Builder(binaries, name);
    }

    /** Options for a node; {@link #start()} launches it and waits until its LocalAPI answers. */
    public static final class Builder {
        private final ClientBinaries binaries;
        private final String name;
        private Path workDir;
        private Path logDir;
        private final Map<String, String> env = new LinkedHashMap<>();
        private final List<String> daemonArgs = new ArrayList<>();
        private final List<String> launcher = new ArrayList<>();
        private Consumer<TailscaleNode> onStart = node -> { };

        private Builder(ClientBinaries binaries, String name) {
            if (!NODE_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("node name '" + name + "' must be a DNS label: [a-z0-9-], 1-63 chars");
            }
            this.binaries = binaries;
            this.name = name;
        }

        /** Parent of the node's state dir; default a new temporary directory. Keep it short: the socket lives there. */
        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /** Where {@code <name>.tailscaled.log} and {@code <name>.cli.log} go; default the work dir. */
        public Builder logDir(Path dir) {
            this.logDir = dir;
            return this;
        }

        /** An extra environment variable for tailscaled and the CLI, e.g. {@code TS_DEBUG_ALWAYS_USE_DERP=1}. */
        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /** Extra tailscaled flags, e.g. {@code --verbose=1}. */
        public Builder daemonArgs(String... args) {
            daemonArgs.addAll(Arrays.asList(args));
            return this;
        }

        /**
         * A command that runs tailscaled (given as its remaining arguments) in a changed setting and then {@code exec}s
         * it, so that the daemon keeps the launcher's process id: {@code unshare --mount ...} to give it its own
         * {@code /etc/resolv.conf}, say.
         */
        public Builder launchedBy(String... command) {
            launcher.addAll(Arrays.asList(command));
            return this;
        }

        /** Told about the node before its daemon starts, so an owner can clean up even a failed start. */
        Builder onStart(Consumer<TailscaleNode> listener) {
            this.onStart = listener;
            return this;
        }

        public TailscaleNode start() {
            try {
                if (workDir == null) {
                    workDir = Files.createTempDirectory("svc-ts-");
                }
                if (logDir == null) {
                    logDir = workDir;
                }
                Files.createDirectories(logDir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            TailscaleNode node = new TailscaleNode(this);
            onStart.accept(node);
            try {
                node.startDaemon();
            } catch (RuntimeException | Error e) {
                node.close();
                throw e;
            }
            return node;
        }
    }

    // ---- lifecycle ----

    /** Stops the daemon and starts it again on the same state dir (a reboot, as far as the node can tell). */
    public synchronized void restart() {
        requireOpen();
        stopDaemon();
        startDaemon();
    }

    /** Stops the daemon (SIGTERM, then SIGKILL after a grace period) and any pending interactive login. Idempotent. */
    public synchronized void stop() {
        interactiveLogins.forEach(InteractiveLogin::close);
        interactiveLogins.clear();
        stopDaemon();
    }

    /** Stops everything this node started; the state dir stays for inspection (its owner deletes it). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        trap.close();
        closed = true;
    }

    public synchronized boolean isRunning() {
        return daemon != null && daemon.isAlive();
    }

    /** The running daemon's process, e.g. to check it is gone after {@link #stop()}. */
    public synchronized ProcessHandle daemonProcess() {
        if (daemon == null) {
            throw new IllegalStateException(name + ": tailscaled is not running");
        }
        return daemon.toHandle();
    }

    // ---- CLI ----

    /**
     * {@code tailscale up --login-server=<loginServer> --auth-key=<authKey> --hostname=<hostname> <extraArgs>},
     * waiting up to {@link #CLI_TIMEOUT} (up returns once the node is Running, or fails).
     */
    public CliResult up(URI loginServer, String authKey, String hostname, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("up", "--login-server=" + loginServer, "--auth-key=" + authKey,
                "--hostname=" + hostname));
        args.addAll(Arrays.asList(extraArgs));
        CliResult result = cli(CLI_TIMEOUT, args.toArray(String[]::new));
        if (result.timedOut() && stuckStarting()) {
            // tailscaled leaves Starting on an engine status that counts a live DERP connection. Two status reads
            // racing (an endpoint change and the new DERP connection each ask for one; a read is dropped when an
            // older-stamped one was taken) can leave a count of none as the last one taken, and nothing asks again
            // until the network changes. Seen twice with 1.80.3 routers in CI: netmap received, DERP connected, no
            // Running for 60 s. A rebind reconnects DERP, which asks again; the same up then returns. The CLI log
            // keeps the line below, so the nudge is never silent.
            appendLine(cliLogFile, "=== " + Instant.now() + " harness: up timed out in Starting with its netmap;"
                    + " tailscale debug rebind to have tailscaled read its engine status again");
            cli("debug", "rebind");
            result = cli(CLI_TIMEOUT, args.toArray(String[]::new));
        }
        return result;
    }

    /** Whether the daemon has its netmap (addresses) yet stays in Starting. */
    private boolean stuckStarting() {
        try {
            NodeStatus status = status();
            return status.backendState() == BackendState.Starting && !status.tailscaleIps().isEmpty();
        } catch (IllegalStateException daemonGone) {
            return false;
        }
    }

    /**
     * Starts {@code tailscale up --login-server=<loginServer> --hostname=<hostname> <extraArgs>} without an auth
     * key and returns at once: the CLI prints an AuthURL ({@link InteractiveLogin#awaitAuthUrl}) and waits
     * until the login completes ({@link InteractiveLogin#await}).
     */
    public InteractiveLogin upAsync(URI loginServer, String hostname, String... extraArgs) {
        requireOpen();
        List<String> args = new ArrayList<>(List.of("up", "--login-server=" + loginServer, "--hostname=" + hostname));
        args.addAll(Arrays.asList(extraArgs));
        List<String> command = cliCommand(args.toArray(String[]::new));
        try {
            InteractiveLogin login = new InteractiveLogin(ChildProcesses.start(cliProcess(command)), command,
                    this::appendTranscript);
            interactiveLogins.add(login);
            return login;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
    }

    /**
     * Starts {@code tailscale --socket=<sock> <args>} and returns at once, watching its output for a URL that
     * {@code urlLine} finds (its first group): a {@code tailscale ssh} session held for a check prints one.
     */
    public InteractiveLogin cliAsync(java.util.regex.Pattern urlLine, String... args) {
        requireOpen();
        List<String> command = cliCommand(args);
        try {
            InteractiveLogin running = new InteractiveLogin(urlLine, ChildProcesses.start(cliProcess(command)),
                    command, this::appendTranscript);
            interactiveLogins.add(running);
            return running;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
    }

    /** {@code tailscale status --json}, parsed. Throws if the CLI fails (e.g. the daemon is down). */
    public NodeStatus status() {
        CliResult result = run(STATUS_TIMEOUT, false, "status", "--json");
        if (!result.ok()) {
            throw new IllegalStateException(name + ": " + result.describe() + daemonExitNote());
        }
        try {
            return NodeStatus.parse(result.stdout());
        } catch (RuntimeException e) {
            throw new IllegalStateException(name + ": cannot read status --json: " + e.getMessage() + "\n" + result.describe(), e);
        }
    }

    /** Polls {@link #status()} until {@code condition} holds; returns that status. */
    public NodeStatus awaitStatus(Predicate<NodeStatus> condition, Duration timeout) {
        return awaitStatus("the expected status", condition, timeout);
    }

    /**
     * Polls {@link #status()} until {@code condition} holds; returns that status, or throws an AssertionError
     * naming {@code what}, the last status seen and the daemon log's tail.
     */
    public NodeStatus awaitStatus(String what, Predicate<NodeStatus> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no status yet";
        while (true) {
            try {
                NodeStatus status = status();
                if (condition.test(status)) {
                    return status;
                }
                last = status.summary();
            } catch (IllegalStateException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + ": " + what + " not reached within " + timeout.toSeconds()
                        + "s; last status: " + last + "\n--- " + logFile + " (tail)\n" + logTail(20));
            }
            sleep(POLL_INTERVAL);
        }
    }

    /**
     * {@code tailscale ping --until-direct=false --c=5 --timeout=5s <extraArgs> <peer>}: disco pings over
     * whatever path works (direct or DERP); succeeds on the first pong. {@code peer} is a name or address.
     */
    public CliResult ping(String peer, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("ping", "--until-direct=false", "--c=5", "--timeout=5s"));
        args.addAll(Arrays.asList(extraArgs));
        args.add(peer);
        return cli(CLI_TIMEOUT, args.toArray(String[]::new));
    }

    /** {@code tailscale logout}. */
    public CliResult logout() {
        return cli(CLI_TIMEOUT, "logout");
    }

    /** Runs {@code tailscale --socket=<sock> <args>} with {@link #CLI_TIMEOUT}. */
    public CliResult cli(String... args) {
        return cli(CLI_TIMEOUT, args);
    }

    /** Runs {@code tailscale --socket=<sock> <args>}, killing it after {@code timeout}. */
    public CliResult cli(Duration timeout, String... args) {
        return run(timeout, true, args);
    }

    /** Runs the CLI; it goes into the CLI log if {@code transcribed} or if it failed (status polls would drown the rest). */
    private CliResult run(Duration timeout, boolean transcribed, String... args) {
        requireOpen();
        List<String> command = cliCommand(args);
        Instant started = Instant.now();
        Process process;
        try {
            process = ChildProcesses.start(cliProcess(command));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        CompletableFuture<String> stdout = readAll(process.getInputStream());
        CompletableFuture<String> stderr = readAll(process.getErrorStream());
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            ChildProcesses.stop(process, Duration.ZERO);
        }
        CliResult result = new CliResult(command, finished ? process.exitValue() : -1, join(stdout), join(stderr),
                !finished, Duration.between(started, Instant.now()));
        if (transcribed || !result.ok()) {
            appendTranscript(result);
        }
        return result;
    }

    // ---- where things are ----

    public String name() {
        return name;
    }

    public ClientVersion clientVersion() {
        return binaries.version();
    }

    public ClientBinaries binaries() {
        return binaries;
    }

    public Path stateDir() {
        return stateDir;
    }

    public Path socket() {
        return socket;
    }

    /** The daemon's SOCKS5 server on 127.0.0.1, through which a test dials tailnet addresses (changes on restart). */
    public synchronized InetSocketAddress socksAddress() {
        return new InetSocketAddress("127.0.0.1", socksPort);
    }

    /** tailscaled's stdout and stderr, across restarts. */
    public Path logFile() {
        return logFile;
    }

    /** Every CLI command run on this node with its output. */
    public Path cliLogFile() {
        return cliLogFile;
    }

    /** The last {@code lines} lines of {@link #logFile()}. */
    public String logTail(int lines) {
        return tail(logFile, lines);
    }

    public String cliLogTail(int lines) {
        return tail(cliLogFile, lines);
    }

    /**
     * Requests the daemon or CLI sent to the refusing HTTP proxy: each one is an attempt to reach something off
     * this machine (the proxy is the only way out a Go HTTP client takes without being told otherwise).
     */
    public List<String> trappedRequests() {
        return trap.requests();
    }

    /** The environment tailscaled and the CLI run with (for logs and harness tests). */
    public Map<String, String> environment() {
        return environment;
    }

    @Override
    public String toString() {
        return name + " (tailscale " + binaries.version().version() + ")";
    }

    // ---- internals ----

    private Map<String, String> closedNetworkEnvironment(Map<String, String> extra) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        env.put("HOME", stateDir.toString());
        // Without an existing TS_LOGS_DIR, logpolicy falls back to /var/lib/tailscale (as root) or ~/.cache.
        env.put("TS_LOGS_DIR", stateDir.resolve("logs").toString());
        env.put("TS_NO_LOGS_NO_SUPPORT", "true");
        env.put("TS_LOG_TARGET", trap.url());
        env.put("TS_DISABLE_PORTMAPPER", "1");
        env.put("TS_ASSUME_NETWORK_UP_FOR_TEST", "1");
        env.put("TS_DEBUG_PERMIT_HTTP_C2N", "1");
        env.put("TS_PANIC_IF_HIT_MAIN_CONTROL", "1");
        env.put("TS_DEBUG_LOG_RATE", "all");
        for (String proxy : List.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")) {
            env.put(proxy, trap.url());
        }
        for (String noProxy : List.of("NO_PROXY", "no_proxy")) {
            env.put(noProxy, "127.0.0.1,localhost,::1");
        }
        env.putAll(extra);
        return Map.copyOf(env);
    }

    private List<String> daemonCommand() {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(
                binaries.tailscaled().toString(),
                "--tun=userspace-networking",
                "--statedir=" + stateDir,
                "--socket=" + socket,
                "--port=0",
                "--no-logs-no-support",
                "--socks5-server=127.0.0.1:0"));
        command.addAll(extraDaemonArgs);
        return command;
    }

    private synchronized void startDaemon() {
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            throw new IllegalStateException(name + ": socket path too long for a unix socket (" + socket
                    + "); use a shorter work dir");
        }
        List<String> command = daemonCommand();
        long logStart;
        try {
            Files.createDirectories(stateDir.resolve("logs"));
            appendLine(logFile, "=== " + Instant.now() + " harness: starting " + String.join(" ", command));
            logStart = Files.size(logFile);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().clear();
            builder.environment().putAll(environment);
            daemon = ChildProcesses.start(builder);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot start " + command, e);
        }
        socksPort = 0;
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String waitingFor = "the SOCKS5 listener";
        while (true) {
            if (!daemon.isAlive()) {
                throw new IllegalStateException(name + ": tailscaled exited with " + daemon.exitValue()
                        + " while starting\n--- " + logFile + " (tail)\n" + logTail(40));
            }
            if (socksPort == 0) {
                socksPort = socksPortLoggedAfter(logStart);
            }
            if (socksPort != 0) {
                waitingFor = "the LocalAPI (status --json)";
                CliResult status = run(STATUS_TIMEOUT, false, "status", "--json");
                if (status.ok() && status.stdout().contains("\"BackendState\"")) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                stopDaemon();
                throw new IllegalStateException(name + ": tailscaled did not bring up " + waitingFor + " within "
                        + START_TIMEOUT.toSeconds() + "s\n--- " + logFile + " (tail)\n" + logTail(40));
            }
            sleep(POLL_INTERVAL);
        }
    }

    private synchronized void stopDaemon() {
        if (daemon == null) {
            return;
        }
        int exit = ChildProcesses.stop(daemon, STOP_GRACE);
        appendLine(logFile, "=== " + Instant.now() + " harness: tailscaled stopped, exit " + exit);
        daemon = null;
        socksPort = 0;
    }

    private int socksPortLoggedAfter(long offset) {
        try {
            String log = Files.readString(logFile, StandardCharsets.ISO_8859_1);
            Matcher matcher = SOCKS_LISTENING.matcher(log);
            return matcher.find((int) Math.min(offset, log.length())) ? Integer.parseInt(matcher.group(1)) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private String daemonExitNote() {
        synchronized (this) {
            if (daemon != null && !daemon.isAlive()) {
                return "\n(tailscaled has exited with " + daemon.exitValue() + "; log tail:)\n" + logTail(40);
            }
            return daemon == null ? "\n(tailscaled is stopped)" : "";
        }
    }

    private List<String> cliCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(binaries.tailscale().toString(), "--socket=" + socket));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private ProcessBuilder cliProcess(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().clear();
        builder.environment().putAll(environment);
        return builder;
    }

    private synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
    }

    private void appendTranscript(CliResult result) {
        appendLine(cliLogFile, "=== " + Instant.now() + " (" + result.took().toMillis() + " ms)\n" + result.describe());
    }

    static CompletableFuture<String> readAll(InputStream in) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (in) {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.complete("(output unreadable: " + e + ")");
            }
        });
        return text;
    }

    private static String join(CompletableFuture<String> text) {
        try {
            return text.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return "(output not collected: " + e + ")";
        }
    }

    private static synchronized void appendLine(Path file, String text) {
        try {
            Files.writeString(file, text + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String tail(Path file, int lines) {
        try {
            if (!Files.exists(file)) {
                return "(no " + file.getFileName() + ")";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
