package io.meshcontrol.api;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of one server's {@code /api/v1}, shared by the CLI and the desktop app. The base URL may carry a
 * path (a server behind a reverse proxy under a prefix); every path is resolved below it.
 */
public final class MeshClient implements AutoCloseable {

    /** Response header in which the server states its version. */
    public static final String VERSION_HEADER = "Svc-Version";
    /** Response header of {@code /version} that names this run of the server ({@link LocalAccess#instance()}). */
    public static final String INSTANCE_HEADER = "Svc-Instance";


    private final URI base;
    private final String token;
    private final String clientVersion;
    private final Consumer<String> warnings;
    private final HttpClient http;
    private final Duration timeout;
    private final JsonMapper json;
    /** How long {@link #close} waits for the HTTP client's threads to end. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);
    private final AtomicBoolean versionChecked = new AtomicBoolean();

    /** A client whose requests wait {@link ClientSettings#DEFAULT_TIMEOUT}, as {@code cli.timeout} does unset. */
    public MeshClient(URI baseUrl, String token, boolean insecure, String clientVersion, Consumer<String> warnings) {
        this(baseUrl, token, insecure, clientVersion, warnings, ClientSettings.DEFAULT_TIMEOUT);
    }

    /**
     * @param insecure skip TLS certificate verification ({@code cli.insecure})
     * @param clientVersion this program's version; a different server version is reported once to {@code warnings}
     * @param timeout how long each request waits, from connecting to the answer's headers ({@code cli.timeout})
     */
    public MeshClient(URI baseUrl, String token, boolean insecure, String clientVersion, Consumer<String> warnings,
            Duration timeout) {
        String text = baseUrl.toString();
        this.base = URI.create(text.endsWith("/") ? text : text + "/");
        this.token = token;
        this.clientVersion = clientVersion;
        this.warnings = warnings;
        this.timeout = timeout;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        if (insecure) {
            builder.sslContext(trustingEverything());
        } else if ("http".equalsIgnoreCase(base.getScheme())) {
            // (with parameters of its own: the context's defaults would be worked out from the providers too)
            builder.sslContext(trustingNothing()).sslParameters(new SSLParameters());
        }
        this.http = builder.build();
        this.json = ApiJson.mapper(false);
    }

    private MeshClient(MeshClient same, String token, Consumer<String> warnings) {
        this.base = same.base;
        this.token = token;
        this.clientVersion = same.clientVersion;
        this.warnings = warnings;
        this.timeout = same.timeout;
        this.http = same.http;
        this.json = same.json;
    }

    /**
     * A client of the same server that sends {@code token} and reports to {@code warnings}, over this one's HTTP
     * client and its open connection: setting up an HTTP client and a JSON mapper is a good part of a CLI call.
     */
    public MeshClient withToken(String token, Consumer<String> warnings) {
        return new MeshClient(this, token, warnings);
    }

    public URI baseUrl() {
        return base;
    }

    /**
     * Stops the HTTP client shared by this client and those made from it ({@link #withToken}), abandoning any request
     * still open. Its selector thread waits in native code, and a JVM that exits while a thread does waits up to
     * 0.3 s for it: a short-lived program (the CLI) closes its clients before it exits.
     */
    @Override
    public void close() {
        http.shutdownNow();
        try {
            http.awaitTermination(CLOSE_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public VersionInfo version() {
        return send("GET", "version", null, VersionInfo.class);
    }

    /** The run of the server that answers, as {@code /version} names it; empty when it names none. */
    public Optional<String> instance() {
        return exchange("GET", "version", null, null).headers().firstValue(INSTANCE_HEADER);
    }

    public ServerInfo server() {
        return send("GET", "api/v1/server", null, ServerInfo.class);
    }

    public List<UserView> users() {
        return send("GET", "api/v1/user", null, UserList.class).users();
    }

    /** The named user; a 404 {@link ApiException} when there is none. */
    public UserView user(String name) {
        return send("GET", "api/v1/user?name=" + query(name), null, UserList.class).users().getFirst();
    }

    public UserView createUser(UserRequest request) {
        return send("POST", "api/v1/user", request, UserView.class);
    }

    public UserView updateUser(String id, UserRequest change) {
        return send("PATCH", "api/v1/user/" + path(id), change, UserView.class);
    }

    /** Users approval: lets a user made by a first login into the network. */
    public UserView approveUser(String id) {
        return send("POST", "api/v1/user/" + path(id) + "/approve", null, UserView.class);
    }

    public void deleteUser(String id) {
        send("DELETE", "api/v1/user/" + path(id), null, Void.class);
    }

    public List<ApiKeyView> apiKeys() {
        return send("GET", "api/v1/apikey", null, ApiKeyList.class).apiKeys();
    }

    public IssuedApiKey createApiKey(ApiKeyRequest request) {
        return send("POST", "api/v1/apikey", request, IssuedApiKey.class);
    }

    public ApiKeyView expireApiKey(String prefix) {
        return send("POST", "api/v1/apikey/" + path(prefix) + "/expire", null, ApiKeyView.class);
    }

    public IssuedApiKey rotateApiKey(String prefix, String expiration) {
        return send("POST", "api/v1/apikey/" + path(prefix) + "/rotate", ApiKeyRequest.rotate(expiration),
                IssuedApiKey.class);
    }

    public List<OAuthClientView> oauthClients() {
        return send("GET", "api/v1/oauth-client", null, OAuthClientList.class).oauthClients();
    }

    public IssuedOAuthClient createOAuthClient(OAuthClientRequest request) {
        return send("POST", "api/v1/oauth-client", request, IssuedOAuthClient.class);
    }

    public OAuthClientView updateOAuthClient(String id, OAuthClientRequest change) {
        return send("PATCH", "api/v1/oauth-client/" + path(id), change, OAuthClientView.class);
    }

    public void deleteOAuthClient(String id) {
        send("DELETE", "api/v1/oauth-client/" + path(id), null, Void.class);
    }

    public List<WebhookView> webhooks() {
        return send("GET", "api/v1/webhook", null, WebhookList.class).webhooks();
    }

    public WebhookView webhook(String id) {
        return send("GET", "api/v1/webhook/" + path(id), null, WebhookView.class);
    }

    public IssuedWebhook createWebhook(WebhookRequest request) {
        return send("POST", "api/v1/webhook", request, IssuedWebhook.class);
    }

    public WebhookView updateWebhook(String id, List<String> subscriptions) {
        return send("PATCH", "api/v1/webhook/" + path(id), new WebhookRequest(null, null, subscriptions),
                WebhookView.class);
    }

    public void deleteWebhook(String id) {
        send("DELETE", "api/v1/webhook/" + path(id), null, Void.class);
    }

    public IssuedWebhook rotateWebhook(String id) {
        return send("POST", "api/v1/webhook/" + path(id) + "/rotate", null, IssuedWebhook.class);
    }

    public void testWebhook(String id) {
        send("POST", "api/v1/webhook/" + path(id) + "/test", null, Void.class);
    }

    public List<WebhookDeliveryView> webhookDeliveries(String id) {
        return send("GET", "api/v1/webhook/" + path(id) + "/deliveries", null, WebhookDeliveryList.class)
                .deliveries();
    }

    public List<String> webhookEventTypes() {
        return send("GET", "api/v1/webhook/event-types", null, WebhookEventTypes.class).eventTypes();
    }

    public List<AppView> apps() {
        return send("GET", "api/v1/apps", null, AppList.class).apps();
    }

    public AppView app(String id) {
        return send("GET", "api/v1/app/" + path(id), null, AppView.class);
    }

    public AppView createApp(AppRequest request) {
        return send("POST", "api/v1/apps", request, AppView.class);
    }

    public AppView updateApp(String id, AppRequest request) {
        return send("PUT", "api/v1/app/" + path(id), request, AppView.class);
    }

    public void deleteApp(String id) {
        send("DELETE", "api/v1/app/" + path(id), null, Void.class);
    }

    public List<PreAuthKeyView> preAuthKeys() {
        return send("GET", "api/v1/preauthkey", null, PreAuthKeyList.class).preAuthKeys();
    }

    public IssuedPreAuthKey createPreAuthKey(PreAuthKeyRequest request) {
        return send("POST", "api/v1/preauthkey", request, IssuedPreAuthKey.class);
    }

    public PreAuthKeyView preAuthKey(String id) {
        return send("GET", "api/v1/preauthkey/" + path(id), null, PreAuthKeyView.class);
    }

    public void deletePreAuthKey(String id) {
        send("DELETE", "api/v1/preauthkey/" + path(id), null, Void.class);
    }

    public List<NodeView> nodes() {
        return send("GET", "api/v1/node", null, NodeList.class).nodes();
    }

    /**
     * The nodes a query picks: its filters, sort and page as {@code GET /api/v1/node} takes them ({@code os},
     * {@code updateAvailable}, {@code sort}, {@code limit}, ...: docs/api.md, "Listing nodes"), in the order given.
     */
    public NodeList nodes(java.util.Map<String, String> query) {
        String text = query.entrySet().stream().map(e -> query(e.getKey()) + "=" + query(e.getValue()))
                .collect(java.util.stream.Collectors.joining("&"));
        return send("GET", "api/v1/node" + (text.isEmpty() ? "" : "?" + text), null, NodeList.class);
    }

    /** What an administrator looks at first, counted by the server ({@code GET /api/v1/overview}). */
    public OverviewView overview() {
        return send("GET", "api/v1/overview", null, OverviewView.class);
    }

    public NodeView node(String id) {
        return send("GET", "api/v1/node/" + path(id), null, NodeView.class);
    }

    /** One action on many nodes with one request, all or nothing ({@code POST /api/v1/node/bulk}). */
    public BulkResult bulkNodes(BulkRequest request) {
        return send("POST", "api/v1/node/bulk", request, BulkResult.class);
    }

    /** Expires (revokes) many API keys by prefix with one request, all or nothing. */
    public BulkResult expireApiKeys(List<String> prefixes) {
        return send("POST", "api/v1/apikey/bulk", new BulkRequest("expire", prefixes, null), BulkResult.class);
    }

    /** Revokes many pre-auth keys by id with one request, all or nothing. */
    public BulkResult revokePreAuthKeys(List<String> ids) {
        return send("POST", "api/v1/preauthkey/bulk", new BulkRequest("revoke", ids, null), BulkResult.class);
    }

    public NodeView renameNode(String id, String name) {
        return send("POST", "api/v1/node/" + path(id) + "/rename", new NodeRequest(name, null), NodeView.class);
    }

    public NodeView tagNode(String id, List<String> tags) {
        return send("POST", "api/v1/node/" + path(id) + "/tags", new NodeRequest(null, tags), NodeView.class);
    }

    public NodeView expireNode(String id) {
        return send("POST", "api/v1/node/" + path(id) + "/expire", null, NodeView.class);
    }

    public NodeView approveNode(String id) {
        return send("POST", "api/v1/node/" + path(id) + "/approve", null, NodeView.class);
    }

    public NodeView suspendNode(String id) {
        return send("POST", "api/v1/node/" + path(id) + "/suspend", null, NodeView.class);
    }

    public NodeView unsuspendNode(String id) {
        return send("POST", "api/v1/node/" + path(id) + "/unsuspend", null, NodeView.class);
    }

    /** Turns the node's key expiry off ({@code true}: its key never expires) or back on. */
    public NodeView setKeyExpiryDisabled(String id, boolean disabled) {
        return send("POST", "api/v1/node/" + path(id) + "/key-expiry", new KeyExpiryRequest(disabled), NodeView.class);
    }

    /** The peers the node's map gives it now. */
    public List<PeerView> nodePeers(String id) {
        return send("GET", "api/v1/node/" + path(id) + "/peers", null, PeerList.class).peers();
    }

    /** The node's packet filter as the policy compiles it (who may reach it). */
    public PacketFilterView nodePacketFilter(String id) {
        return send("GET", "api/v1/node/" + path(id) + "/packet-filter", null, PacketFilterView.class);
    }

    /** Files a just-in-time access request (for the credential's own user unless {@code user} is given). */
    public AccessRequestView createAccessRequest(AccessRequestRequest request) {
        return send("POST", "api/v1/access-request", request, AccessRequestView.class);
    }

    public List<AccessRequestView> accessRequests() {
        return send("GET", "api/v1/access-request", null, AccessRequestList.class).accessRequests();
    }

    public AccessRequestView accessRequest(String id) {
        return send("GET", "api/v1/access-request/" + path(id), null, AccessRequestView.class);
    }

    /** {@code decision}: approve, deny or revoke. */
    public AccessRequestView decideAccessRequest(String id, String decision) {
        return send("POST", "api/v1/access-request/" + path(id) + "/" + path(decision), null,
                AccessRequestView.class);
    }

    public RoutesView nodeRoutes(String id) {
        return send("GET", "api/v1/node/" + path(id) + "/routes", null, RoutesView.class);
    }

    /** Replaces the node's approved routes (an empty list clears them); returns its routes after the change. */
    public RoutesView setNodeRoutes(String id, List<String> routes) {
        return send("POST", "api/v1/node/" + path(id) + "/routes", new RoutesRequest(routes), RoutesView.class);
    }

    /** Marks the node as a global exit node or clears the mark; returns its routes after the change. */
    public RoutesView setGlobalExitNode(String id, GlobalExitNodeRequest request) {
        return send("POST", "api/v1/node/" + path(id) + "/global-exit-node", request, RoutesView.class);
    }

    public void deleteNode(String id) {
        send("DELETE", "api/v1/node/" + path(id), null, Void.class);
    }

    /** Completes a waiting interactive login; returns the registered node. */
    public NodeView registerAuth(String user, String authId) {
        return registerAuth(new AuthRegisterRequest(user, authId));
    }

    /** Completes a waiting interactive login for a user or for tags, approving it if asked; returns the node. */
    public NodeView registerAuth(AuthRegisterRequest request) {
        return send("POST", "api/v1/auth/register", request, NodeView.class);
    }

    /** The machine waiting for the interactive login {@code authId}. */
    public PendingRegistrationView pendingRegistration(String authId) {
        return send("GET", "api/v1/auth/register/" + path(authId), null, PendingRegistrationView.class);
    }

    /** Refuses the interactive login {@code authId}: the waiting {@code tailscale up} ends with the refusal. */
    public void refuseRegistration(String authId) {
        send("DELETE", "api/v1/auth/register/" + path(authId), null, Void.class);
    }

    /** Lets an SSH session held by a {@code check} rule in. */
    public SshCheckView approveSshCheck(String authId) {
        return send("POST", "api/v1/auth/approve", new AuthDecisionRequest(authId), SshCheckView.class);
    }

    /** Refuses an SSH session held by a {@code check} rule; final for that check. */
    public SshCheckView rejectSshCheck(String authId) {
        return send("POST", "api/v1/auth/reject", new AuthDecisionRequest(authId), SshCheckView.class);
    }

    /** The SSH checks waiting for a decision. */
    public List<SshCheckView> sshChecks() {
        return send("GET", "api/v1/auth/ssh-check", null, SshCheckList.class).sshChecks();
    }

    /** Registers a machine with no client behind it (development only: the server needs debug.node_api_enabled). */
    public NodeView createDebugNode(DebugNodeRequest request) {
        return send("POST", "api/v1/debug/node", request, NodeView.class);
    }

    public PolicyDocument policy() {
        return taggedPolicy().value();
    }

    /** The policy with its ETag, for a conditional save ({@link #setPolicy(String, String)}). */
    public Tagged<PolicyDocument> taggedPolicy() {
        return sendTagged("GET", "api/v1/policy", null, PolicyDocument.class, null);
    }

    public PolicyDocument setPolicy(String text) {
        return setPolicy(text, null).value();
    }

    /**
     * Saves the policy.
     *
     * @param ifMatch the ETag read before, so that a change saved meanwhile is not overwritten (412); null saves anyway
     */
    public Tagged<PolicyDocument> setPolicy(String text, String ifMatch) {
        return sendTagged("PUT", "api/v1/policy", new PolicyDocument(text), PolicyDocument.class, ifMatch);
    }

    /** Validates a policy (running its tests) without saving it; a bad one is an {@link ApiException}. */
    public PolicyCheck checkPolicy(String text) {
        return send("POST", "api/v1/policy/check", new PolicyDocument(text), PolicyCheck.class);
    }

    /** A page of the audit log, newest first. */
    public AuditPage audit(AuditQuery query) {
        String parameters = query.queryString();
        return send("GET", "api/v1/audit" + (parameters.isEmpty() ? "" : "?" + parameters), null, AuditPage.class);
    }

    /** {@code GET /api/v1/tailnet-lock}. */
    public TailnetLockView tailnetLock() {
        return send("GET", "api/v1/tailnet-lock", null, TailnetLockView.class);
    }

    public SettingsView settings() {
        return send("GET", "api/v1/settings", null, SettingsView.class);
    }

    public SettingsView updateSettings(SettingsView change) {
        return send("PATCH", "api/v1/settings", change, SettingsView.class);
    }

    /** The DNS machines are sent. */
    public DnsView dns() {
        return send("GET", "api/v1/dns", null, DnsView.class);
    }

    /** Replaces the DNS settings the view names; what it leaves out stays. */
    public DnsView setDns(DnsView settings) {
        return send("PUT", "api/v1/dns", settings, DnsView.class);
    }

    /** The DERP settings in force, with their ETag. */
    public Tagged<DerpSettingsView> derp() {
        return sendTagged("GET", "api/v1/derp", null, DerpSettingsView.class, null);
    }

    /**
     * Replaces the DERP settings.
     *
     * @param ifMatch the ETag read before, so that a concurrent change is not overwritten (412); null writes anyway
     */
    public Tagged<DerpSettingsView> setDerp(DerpSettingsView settings, String ifMatch) {
        return sendTagged("PUT", "api/v1/derp", settings, DerpSettingsView.class, ifMatch);
    }

    /** Puts the configuration file's DERP settings back in force. */
    public Tagged<DerpSettingsView> resetDerp() {
        return sendTagged("DELETE", "api/v1/derp", null, DerpSettingsView.class, null);
    }

    /** Fetches the DERP map URLs and rereads the map files now. */
    public DerpRefreshResult refreshDerp() {
        return send("POST", "api/v1/derp/refresh", null, DerpRefreshResult.class);
    }

    public DerpLatencyReport derpLatency() {
        return send("GET", "api/v1/derp/latency", null, DerpLatencyReport.class);
    }

    /**
     * Follows the server's event stream ({@code GET /api/v1/events}, server-sent events) until it ends, handing each
     * event to {@code listener} on the calling thread. Blocks: returns when the server ends the stream, throws when it
     * cannot be opened or breaks; an interrupt of the calling thread stops it.
     */
    public void events(Consumer<ServerEvent> listener) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("api/v1/events"))
                .header("Accept", "text/event-stream").GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<java.util.stream.Stream<String>> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new ServerUnreachableException("cannot reach the server at " + base + ": " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        checkVersion(response);
        if (response.statusCode() >= 400) {
            response.body().close();
            throw new ApiException(Problem.of(response.statusCode(), "HTTP " + response.statusCode(),
                    "the server answered " + response.statusCode() + " for the event stream"));
        }
        try (java.util.stream.Stream<String> lines = response.body()) {
            ServerEvent.Reader reader = new ServerEvent.Reader(listener);
            lines.forEach(reader::line);
        } catch (java.io.UncheckedIOException e) {
            if (!Thread.currentThread().isInterrupted()) {
                throw new ServerUnreachableException("the event stream of " + base + " broke: " + describe(e.getCause()),
                        e);
            }
        }
    }

    private <T> T send(String method, String relativePath, Object body, Class<T> type) {
        return sendTagged(method, relativePath, body, type, null).value();
    }

    private <T> Tagged<T> sendTagged(String method, String relativePath, Object body, Class<T> type, String ifMatch) {
        HttpResponse<byte[]> response = exchange(method, relativePath, body, ifMatch);
        String etag = response.headers().firstValue("ETag").orElse(null);
        if (type == Void.class || response.body().length == 0) {
            return new Tagged<>(null, etag);
        }
        try {
            return new Tagged<>(json.readValue(response.body(), type), etag);
        } catch (JacksonException e) {
            throw new ServerUnreachableException("the server at " + base + " answered " + response.uri().getPath()
                    + " with something that is not this API (is the address right?)", e);
        }
    }

    /** One request and its successful response; an {@link ApiException} for an error status. */
    private HttpResponse<byte[]> exchange(String method, String relativePath, Object body, String ifMatch) {
        URI uri = base.resolve(relativePath);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
            request.method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new ServerUnreachableException("the server at " + base + " did not answer within "
                    + written(timeout) + " (the timeout, cli.timeout for the CLI)", e);
        } catch (IOException e) {
            throw new ServerUnreachableException("cannot reach the server at " + base + ": " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServerUnreachableException("interrupted while calling " + uri, e);
        }
        checkVersion(response);
        if (response.statusCode() >= 400) {
            throw new ApiException(problemOf(response));
        }
        return response;
    }

    private Problem problemOf(HttpResponse<byte[]> response) {
        Optional<String> contentType = response.headers().firstValue("Content-Type");
        if (contentType.isPresent() && contentType.get().contains("json")) {
            try {
                Problem problem = json.readValue(response.body(), Problem.class);
                if (problem.status() != 0) {
                    return problem;
                }
            } catch (JacksonException e) {
                // not a problem document: fall through to a generic one
            }
        }
        return Problem.of(response.statusCode(), "HTTP " + response.statusCode(),
                "the server answered " + response.statusCode() + " for " + response.uri().getPath());
    }

    private void checkVersion(HttpResponse<?> response) {
        Optional<String> serverVersion = response.headers().firstValue(VERSION_HEADER);
        if (serverVersion.isPresent() && !serverVersion.get().equals(clientVersion) && versionChecked.compareAndSet(false, true)) {
            warnings.accept("svc " + clientVersion + " is talking to a server of version " + serverVersion.get()
                    + "; use the same version on both sides");
        }
    }

    /** A timeout as the configuration writes it: {@code 300ms}, {@code 10s}. */
    private static String written(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** A failure to reach the server in words: the JDK leaves a refused connection without a message. */
    private static String describe(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.ConnectException && (cause.getMessage() == null || cause.getMessage().isBlank())) {
                return "the connection was refused (is the server running, and is the address and port right?)";
            }
            if (cause instanceof java.nio.channels.UnresolvedAddressException
                    || cause instanceof java.net.UnknownHostException) {
                return "the host name is unknown (is the address right?)";
            }
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? "the connection failed (" + e.getClass().getSimpleName() + ")"
                : message;
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String path(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static SSLContext trustingNothing() {
        // A client of an http:// server never opens TLS (it only calls its base URL and follows no redirect), but
        // HttpClient takes an SSLContext and its default parameters when it is built, and the JDK's default context
        // reads the trust store, and the parameters load every security provider in the module graph, bcprov's
        // included: a third of `svc nodes list`'s own time (docs/performance.md, "CLI start-up"). Empty trust and
        // key managers fail any TLS connection, never trust one.
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[0], new TrustManager[0], null);
            return context;
        } catch (NoSuchAlgorithmException | KeyManagementException e) {
            throw new IllegalStateException("TLS is unavailable in this runtime", e);
        }
    }

    private static SSLContext trustingEverything() {
        // cli.insecure: the operator chose to skip verification (self-signed lab certificates). An extended trust
        // manager, because JSSE checks the host name itself around a plain X509TrustManager.
        TrustManager trustAll = new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustAll}, null);
            return context;
        } catch (NoSuchAlgorithmException | KeyManagementException e) {
            throw new IllegalStateException("TLS is unavailable in this runtime", e);
        }
    }
}
