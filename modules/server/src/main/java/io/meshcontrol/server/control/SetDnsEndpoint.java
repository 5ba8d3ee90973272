package io.meshcontrol.server.control;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.CertDomains;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.state.MapContextState;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.wire.SetDNSRequest;
import io.meshcontrol.server.nodecerts.ChallengeRecords;
import io.meshcontrol.server.nodecerts.TxtRecord;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code POST /machine/set-dns} ({@link SetDNSRequest#PATH}): a node publishes the answer to an ACME DNS-01 challenge
 * for one of its own certificate names ({@link CertDomains}), as {@code tailscale cert} does. Only the node behind the
 * connection's machine key, admitted and with a valid key, and only a TXT record named {@code _acme-challenge.} plus
 * one of its names, holding a DNS-01 digest. The answer ({@code {}}) comes once the provider has published the
 * record: the client tells the CA to check right after it. A provider that fails is a 502 naming the failure.
 */
public final class SetDnsEndpoint implements MachineHandler {

    private static final System.Logger LOG = System.getLogger(SetDnsEndpoint.class.getName());
    /** A DNS-01 value: the base64url SHA-256 digest of the key authorization, unpadded (RFC 8555, section 8.4). */
    private static final Pattern DNS01_VALUE = Pattern.compile("[A-Za-z0-9_-]{43}");

    private final Snapshots snapshots;
    private final MapContextState context;
    private final Optional<ChallengeRecords> records;
    private final Clock clock;

    /** @param records where records are published; empty when nodes get no certificates ({@code https_certificates}) */
    public SetDnsEndpoint(Snapshots snapshots, MapContextState context, Optional<ChallengeRecords> records,
            Clock clock) {
        this.snapshots = snapshots;
        this.context = context;
        this.records = records;
        this.clock = clock;
    }

    @Override
    public void handle(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        TxtRecord record = check(connection.machineKey(), RegisterEndpoint.readRequest(exchange, SetDNSRequest.class));
        try {
            records.orElseThrow().publish(record);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not publish " + record.name() + ": " + e.getMessage());
            exchange.setStatusCode(StatusCodes.BAD_GATEWAY);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
            exchange.getResponseSender().send("the DNS provider could not publish " + record.name() + ": "
                    + e.getMessage() + "\n", StandardCharsets.UTF_8);
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send("{}", StandardCharsets.UTF_8);
    }

    /** The record {@code request} may publish, or the refusal saying why not. */
    TxtRecord check(MachinePublicKey machineKey, SetDNSRequest request) {
        if (request.nodeKey() == null || request.nodeKey().isZero()) {
            throw MeshException.invalid("the set-dns request names no node key (NodeKey)");
        }
        Node node = snapshots.current().nodeByKey(request.nodeKey())
                .filter(n -> n.machineKey().equals(machineKey))
                .orElseThrow(() -> MeshException.unauthenticated("node key not registered; register first"));
        if (!node.admitted() || node.isKeyExpired(clock.instant())) {
            throw MeshException.forbidden("this node may not publish DNS records: it is not approved, suspended, or "
                    + "its key has expired");
        }
        if (records.isEmpty()) {
            throw MeshException.forbidden("this server gives nodes no certificates (https_certificates.enabled is "
                    + "false)");
        }
        if (!request.type().equalsIgnoreCase("TXT")) {
            throw MeshException.invalid("only TXT records can be set (got type \"" + request.type() + "\")");
        }
        MapContext map = context.current();
        String certName = CertDomains.challengedName(request.name(), node, map).orElseThrow(() ->
                MeshException.forbidden("this node may only set " + CertDomains.of(node, map).stream()
                        .map(name -> CertDomains.CHALLENGE_PREFIX + name).toList() + " (got \"" + request.name()
                        + "\")"));
        if (!DNS01_VALUE.matcher(request.value()).matches()) {
            throw MeshException.invalid("the value must be an ACME DNS-01 digest: 43 base64url characters");
        }
        return new TxtRecord(CertDomains.CHALLENGE_PREFIX + certName.toLowerCase(Locale.ROOT), request.value());
    }
}
