package io.meshcontrol.server.control;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.lock.AumHash;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.state.TailnetLock;
import io.meshcontrol.core.wire.Base64Bytes;
import io.meshcontrol.core.wire.TKA;
import io.meshcontrol.core.wire.WireJson;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tailnet lock's {@code /machine/tka/*} endpoints ({@link TKA}): each reads the client's JSON request, finds the
 * node behind the connection's machine key and the request's node key, and hands the request to {@link TailnetLock},
 * which checks and keeps what it is given. Refusals are a plain-text line, as on the other machine endpoints.
 */
public final class TailnetLockEndpoints {

    private final TailnetLock lock;
    private final Snapshots snapshots;

    public TailnetLockEndpoints(TailnetLock lock, Snapshots snapshots) {
        this.lock = lock;
        this.snapshots = snapshots;
    }

    /** Adds the endpoints; clients send GET with a body, as the vendor's control server takes them. */
    public void register(MachineRoutes routes) {
        routes.add("GET", TKA.INIT_BEGIN, this::initBegin)
                .add("GET", TKA.INIT_FINISH, this::initFinish)
                .add("GET", TKA.BOOTSTRAP, this::bootstrap)
                .add("GET", TKA.SYNC_OFFER, this::syncOffer)
                .add("GET", TKA.SYNC_SEND, this::syncSend)
                .add("GET", TKA.SIGN, this::sign)
                .add("GET", TKA.DISABLE, this::disable)
                .add("GET", TKA.AFFECTED_SIGS, this::affectedSigs);
    }

    private void initBegin(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKAInitBeginRequest.class);
        Node node = requester(connection.machineKey(), request.nodeKey());
        List<TKA.TKASignInfo> need = lock.initBegin(node, bytes(request.genesisAum(), "GenesisAUM")).stream()
                .map(info -> new TKA.TKASignInfo(info.nodeId(), info.nodeKey(), null)).toList();
        answer(exchange, new TKA.TKAInitBeginResponse(need));
    }

    private void initFinish(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKAInitFinishRequest.class);
        Node node = requester(connection.machineKey(), request.nodeKey());
        Map<Long, byte[]> signatures = new LinkedHashMap<>();
        if (request.signatures() != null) {
            request.signatures().forEach((id, sig) -> signatures.put(id, bytes(sig, "a signature")));
        }
        lock.initFinish(node, signatures);
        answer(exchange, Map.of());
    }

    private void bootstrap(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKABootstrapRequest.class);
        requester(connection.machineKey(), request.nodeKey());
        TailnetLock.Bootstrap bootstrap = lock.bootstrap();
        answer(exchange, new TKA.TKABootstrapResponse(
                bootstrap.genesisAum() == null ? null : Base64Bytes.of(bootstrap.genesisAum()),
                bootstrap.disablementSecret() == null ? null : Base64Bytes.of(bootstrap.disablementSecret())));
    }

    private void syncOffer(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKASyncOfferRequest.class);
        requester(connection.machineKey(), request.nodeKey());
        List<AumHash> ancestors = request.ancestors() == null ? List.of()
                : request.ancestors().stream().map(AumHash::parse).toList();
        TailnetLock.SyncOffer offer = lock.offer(AumHash.parse(request.head()), ancestors);
        answer(exchange, new TKA.TKASyncOfferResponse(offer.head().text(),
                offer.ancestors().stream().map(AumHash::text).toList(),
                offer.missing().stream().map(Base64Bytes::of).toList()));
    }

    private void syncSend(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKASyncSendRequest.class);
        Node node = requester(connection.machineKey(), request.nodeKey());
        List<byte[]> aums = request.missingAums() == null ? List.of()
                : request.missingAums().stream().map(aum -> bytes(aum, "an AUM")).toList();
        answer(exchange, new TKA.TKASyncSendResponse(lock.receive(node, aums).text()));
    }

    private void sign(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKASubmitSignatureRequest.class);
        Node node = requester(connection.machineKey(), request.nodeKey());
        lock.sign(node, bytes(request.signature(), "Signature"));
        answer(exchange, Map.of());
    }

    private void disable(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKADisableRequest.class);
        Node node = requester(connection.machineKey(), request.nodeKey());
        lock.disable(node, bytes(request.disablementSecret(), "DisablementSecret"));
        answer(exchange, Map.of());
    }

    private void affectedSigs(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        var request = RegisterEndpoint.readRequest(exchange, TKA.TKASignaturesUsingKeyRequest.class);
        requester(connection.machineKey(), request.nodeKey());
        String keyId = HexFormat.of().formatHex(bytes(request.keyId(), "KeyID"));
        answer(exchange, new TKA.TKASignaturesUsingKeyResponse(
                lock.signaturesBy(keyId).stream().map(Base64Bytes::of).toList()));
    }

    /** The node whose key the request names, when it is this machine's. */
    private Node requester(MachinePublicKey machineKey, NodePublicKey nodeKey) {
        if (nodeKey == null || nodeKey.isZero()) {
            throw MeshException.invalid("the request names no node key (NodeKey)");
        }
        return snapshots.current().nodeByKey(nodeKey).filter(n -> n.machineKey().equals(machineKey))
                .orElseThrow(() -> MeshException.unauthenticated("node key not registered; register first"));
    }

    private static byte[] bytes(Base64Bytes value, String what) {
        if (value == null || value.length() == 0) {
            throw MeshException.invalid("the request has no " + what);
        }
        return value.bytes();
    }

    private static void answer(HttpServerExchange exchange, Object response) {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(java.nio.ByteBuffer.wrap(WireJson.write(response)));
    }
}
