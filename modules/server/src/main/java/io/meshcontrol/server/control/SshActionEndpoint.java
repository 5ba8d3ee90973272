package io.meshcontrol.server.control;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.core.wire.SSHAction;
import io.meshcontrol.core.wire.WireJson;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Deque;

/**
 * {@code GET /machine/ssh/action/{src}/to/{dst}?local_user=U} (the {@code holdAndDelegate} URL of a {@code check}
 * rule): the destination machine holds an incoming Tailscale SSH session and asks what to do. It follows the
 * {@link SSHAction} it gets back: accept, reject, or (with a message it shows the person) another
 * {@code holdAndDelegate} URL to ask next. So the first answer is the check page's URL in the message and a follow-up
 * URL carrying the check's {@code auth_id}; a follow-up waits up to {@link #POLL} for the decision and, without one,
 * answers the same follow-up URL again (the client asks again at once, for up to 30 minutes).
 */
public final class SshActionEndpoint implements MachineHandler {

    public static final String PATH = "/machine/ssh/action/{src}/to/{dst}";
    /** Where a person's browser goes for a check; the auth id follows. */
    public static final String CHECK_PAGE = "/ssh/check/";
    /** How long one follow-up waits before it is answered "ask again": well under any proxy's idle timeout. */
    static final Duration POLL = Duration.ofSeconds(50);

    private final SshChecks checks;
    private final SshChecks.CheckRules rules;
    private final String serverUrl;
    private final Duration poll;

    public SshActionEndpoint(SshChecks checks, SshChecks.CheckRules rules, String serverUrl) {
        this(checks, rules, serverUrl, POLL);
    }

    SshActionEndpoint(SshChecks checks, SshChecks.CheckRules rules, String serverUrl, Duration poll) {
        this.checks = checks;
        this.rules = rules;
        this.serverUrl = serverUrl;
        this.poll = poll;
    }

    @Override
    public void handle(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        long src = nodeId(exchange, "src");
        long dst = nodeId(exchange, "dst");
        String localUser = query(exchange, "local_user");
        if (localUser == null || localUser.isEmpty()) {
            throw MeshException.invalid("local_user is missing");
        }
        String authId = query(exchange, "auth_id");
        SSHAction action = authId == null
                ? first(connection.machineKey(), src, dst, localUser)
                : checks.await(connection.machineKey(), authId, poll).map(this::action)
                        .orElseGet(() -> SSHAction.holdAndDelegate(followUp(src, dst, localUser, authId)));
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        try (OutputStream out = exchange.getOutputStream()) {
            out.write(WireJson.write(action));
        }
    }

    private SSHAction first(MachinePublicKey asker, long src, long dst, String localUser) {
        SshChecks.Answer answer = checks.request(asker, src, dst, localUser, rules);
        if (answer instanceof SshChecks.Answer.Hold(String authId)) {
            SSHAction hold = SSHAction.holdAndDelegate(followUp(src, dst, localUser, authId));
            return new SSHAction(message(serverUrl + CHECK_PAGE + authId), false, false, null, false,
                    hold.holdAndDelegate(), false, false, null, null);
        }
        return action(answer);
    }

    private SSHAction action(SshChecks.Answer answer) {
        return switch (answer) {
            case SshChecks.Answer.Accept accept -> SSHAction.acceptWithForwarding();
            // The client prints the message as it is: a line of its own, like the check's message.
            case SshChecks.Answer.Reject(String message) -> SSHAction.rejectWith(message + "\n");
            case SshChecks.Answer.Hold hold -> throw new IllegalStateException("a follow-up is never held anew");
        };
    }

    /** What the person sees in their terminal while the session is held. */
    static String message(String pageUrl) {
        return "# This SSH session needs a check: prove it is you.\n"
                + "# Open " + pageUrl + "\n"
                + "# and log in as the owner of the machine you connect from (or ask an administrator to approve).\n";
    }

    private String followUp(long src, long dst, String localUser, String authId) {
        return serverUrl + "/machine/ssh/action/" + src + "/to/" + dst + "?local_user="
                + URLEncoder.encode(localUser, StandardCharsets.UTF_8) + "&auth_id=" + authId;
    }

    private static long nodeId(HttpServerExchange exchange, String name) {
        String text = query(exchange, name);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw MeshException.invalid(name + " node id \"" + text + "\" is not a number");
        }
    }

    private static String query(HttpServerExchange exchange, String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }
}
