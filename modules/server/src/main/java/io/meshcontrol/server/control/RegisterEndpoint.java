package io.meshcontrol.server.control;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.netmap.WireNodes;
import io.meshcontrol.core.state.PendingLogins;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.wire.CapabilityVersion;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.RegisterRequest;
import io.meshcontrol.core.wire.RegisterResponse;
import io.meshcontrol.core.wire.WireJson;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BiConsumer;
import tools.jackson.core.JacksonException;

/**
 * {@code POST /machine/register}: pre-auth key, interactive login (AuthURL, then a follow-up request that
 * waits until an administrator or the person's OIDC login completes it), restart with a known node key, and
 * logout. A new node key (a forced re-authentication, an expired key) is a new interactive login. Refusals travel in {@code Error} with HTTP 200, which is how clients expect them.
 */
public final class RegisterEndpoint implements MachineHandler {

    private static final System.Logger LOG = System.getLogger(RegisterEndpoint.class.getName());
    /** Clients read at most 1 MiB of answer; requests are far smaller. */
    static final int MAX_BODY = 1 << 20;
    private static final String AUTH_PATH = "/register/";

    private final Registrations registrations;
    private final PendingLogins pendingLogins;
    private final String serverUrl;
    private final Clock clock;

    /**
     * Takes the tailnet-lock signature a registered node sent for its own node key (after a node-key rotation):
     * {@link io.meshcontrol.core.state.TailnetLock#ownSignature}.
     */
    private final BiConsumer<Node, byte[]> ownSignatures;

    public RegisterEndpoint(Registrations registrations, PendingLogins pendingLogins, String serverUrl, Clock clock) {
        this(registrations, pendingLogins, serverUrl, clock, (node, signature) -> { });
    }

    public RegisterEndpoint(Registrations registrations, PendingLogins pendingLogins, String serverUrl, Clock clock,
            BiConsumer<Node, byte[]> ownSignatures) {
        this.ownSignatures = ownSignatures;
        this.registrations = registrations;
        this.pendingLogins = pendingLogins;
        this.serverUrl = serverUrl;
        this.clock = clock;
    }

    @Override
    public void handle(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        RegisterRequest request = readRequest(exchange, RegisterRequest.class);
        RegisterResponse response = register(connection.machineKey(), request);
        if (request.nodeKeySignature() != null && request.nodeKeySignature().length() > 0) {
            registrations.current(connection.machineKey(), request.nodeKey()).ifPresent(registered ->
                    ownSignatures.accept(registered.node(), request.nodeKeySignature().bytes()));
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        try (OutputStream out = exchange.getOutputStream()) {
            out.write(WireJson.write(response));
        }
    }

    RegisterResponse register(MachinePublicKey machineKey, RegisterRequest request) throws InterruptedException {
        if (!CapabilityVersion.isSupported(request.version())) {
            return RegisterResponse.failure("this Tailscale client is too old for this server (capability version "
                    + request.version() + "); use Tailscale 1.80 or newer");
        }
        if (request.nodeKey() == null || request.nodeKey().isZero()) {
            // Every client sends the key it registers; without one there is nothing to register or look up.
            throw MeshException.invalid("the register request names no node key (NodeKey)");
        }
        Hostinfo hostinfo = request.hostinfo() == null ? Hostinfo.parse("{}") : request.hostinfo();
        Registrations.Request machine = new Registrations.Request(machineKey, request.nodeKey(),
                hostinfo.fields().hostname(), hostinfo.toJson(), hostinfo.fields().requestTags());
        Instant now = clock.instant();

        if (isLogout(request.expiry(), now)) {
            Optional<Node> loggedOut = registrations.logout(machineKey, request.nodeKey());
            LOG.log(Level.INFO, "logout of " + loggedOut.map(Node::givenName).orElse("an unknown node"));
            return new RegisterResponse(null, null, true, false, "", null, "");
        }
        String authKey = request.auth() == null ? null : request.auth().authKey();
        if (authKey != null && !authKey.isBlank()) {
            try {
                return success(registrations.withAuthKey(machine, authKey.trim()));
            } catch (MeshException refused) {
                return RegisterResponse.failure(refused.getMessage());
            }
        }
        if (request.followup() != null && !request.followup().isBlank()) {
            return followUp(machine, request);
        }
        Optional<Registrations.Registered> known = registrations.current(machineKey, request.nodeKey());
        if (known.isPresent()) {
            if (known.get().node().isKeyExpired(now)) {
                return new RegisterResponse(null, null, true, false, "", null, "");
            }
            return success(known.get());
        }
        // A node key the server does not know, without an auth key, is a login: tailscaled makes a new node key only
        // when its key expired or when it is told to log in again (tailscale up --force-reauth, tailscale login), and
        // OldNodeKey then names the key it had. Either way the person logs in; the node keeps its key (and expiry)
        // until that login completes, and the login then sets the new key's expiry.
        return RegisterResponse.authorizationPending(authUrl(pendingLogins.start(machine, request.ephemeral())));
    }

    /**
     * Logout is a requested expiry in the past ({@code tailscale logout} sends 1970-01-01T00:02:03Z); Go's
     * zero time, year 1, means "no request" and is not a logout.
     */
    private static boolean isLogout(Instant expiry, Instant now) {
        return expiry != null && expiry.isAfter(Instant.EPOCH.minusSeconds(1)) && expiry.isBefore(now);
    }

    /** Waits until the login the client was sent to is completed; a lapsed one is replaced by a new URL. */
    private RegisterResponse followUp(Registrations.Request machine, RegisterRequest request) throws InterruptedException {
        String url = request.followup();
        int at = url.lastIndexOf(AUTH_PATH);
        String authId = at < 0 ? "" : url.substring(at + AUTH_PATH.length());
        Optional<String> refusal = pendingLogins.refusal(authId);
        if (refusal.isPresent()) {
            return RegisterResponse.failure(refusal.get()); // refused before this follow-up arrived
        }
        if (!pendingLogins.isPending(authId)) {
            // Completed before this follow-up arrived (the person was quick), or lapsed: a machine the server already
            // knows under this node key is done; anyone else logs in again.
            Optional<Registrations.Registered> known = registrations.current(machine.machineKey(),
                    machine.nodeKey()).filter(registered -> !registered.node().isKeyExpired(clock.instant()));
            return known.map(this::success).orElseGet(() ->
                    RegisterResponse.authorizationPending(authUrl(pendingLogins.start(machine, request.ephemeral()))));
        }
        Optional<Registrations.Registered> done;
        try {
            done = pendingLogins.await(authId, PendingLogins.LIFETIME.plus(Duration.ofSeconds(5)));
        } catch (MeshException refused) {
            return RegisterResponse.failure(refused.getMessage()); // an administrator refused the login
        }
        return done.map(this::success)
                .orElseGet(() -> RegisterResponse.authorizationPending(authUrl(pendingLogins.start(machine, request.ephemeral()))));
    }

    private String authUrl(String authId) {
        return serverUrl + AUTH_PATH + authId;
    }

    private RegisterResponse success(Registrations.Registered registered) {
        User user = registered.user();
        long id = user == null ? WireNodes.TAGGED_DEVICES_USER_ID : user.id();
        String display = user == null ? "Tagged Devices" : user.displayName().isEmpty() ? user.name() : user.displayName();
        String login = user == null ? "tagged-devices" : user.loginName();
        return new RegisterResponse(new RegisterResponse.User(id, display, null, null),
                new RegisterResponse.Login(id, "", login, display, null), false, registered.node().authorized(), "", null, "");
    }

    /** The request body as a wire record; a body that is not one is refused (400) as the client's fault. */
    static <T> T readRequest(HttpServerExchange exchange, Class<T> type) throws IOException {
        byte[] body = readBody(exchange);
        try {
            return WireJson.read(body, type);
        } catch (JacksonException e) {
            throw MeshException.invalid("malformed " + type.getSimpleName() + ": not JSON of its shape");
        }
    }

    private static byte[] readBody(HttpServerExchange exchange) throws IOException {
        try (InputStream in = exchange.getInputStream()) {
            byte[] body = in.readNBytes(MAX_BODY + 1);
            if (body.length > MAX_BODY) {
                throw new IOException("request body over " + MAX_BODY + " bytes");
            }
            return body;
        }
    }
}
