package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.lock.Aum;
import io.meshcontrol.core.lock.AumHash;
import io.meshcontrol.core.lock.LockChain;
import io.meshcontrol.core.lock.LockMapInfo;
import io.meshcontrol.core.lock.LockStatus;
import io.meshcontrol.core.lock.LockedNode;
import io.meshcontrol.core.lock.NodeKeySignature;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.TailnetLockStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The control server's part of the tailnet lock: it keeps the authority's AUM log and each node's node-key signature,
 * and hands them out; it never signs (it holds no trusted key). Machines change it over the control protocol
 * ({@code tailscale lock init/sign/add/remove/disable}); every change checks what it was given as the clients will
 * (signatures by trusted keys, AUMs that follow the head, the disablement secret) and is written with its audit entry.
 * The standing in force reaches every map through the map context ({@link LockMapInfo}); a node's signature reaches its
 * peers with the node.
 */
public final class TailnetLock {

    private static final System.Logger LOG = System.getLogger(TailnetLock.class.getName());

    /** Where the lock stands: no log yet, on (a log), or disabled (a log and the secret that disabled it). */
    private record Standing(LockChain chain, String disablementSecret) {
        static final Standing NONE = new Standing(null, null);

        boolean enabled() {
            return chain != null && disablementSecret == null;
        }

        LockMapInfo mapInfo() {
            if (chain == null) {
                return null;
            }
            return disablementSecret == null ? LockMapInfo.on(chain.head()) : LockMapInfo.DISABLED;
        }
    }

    /** A node that must be signed before lock is enabled: its id and node key. */
    public record SignInfo(long nodeId, NodePublicKey nodeKey) {
    }

    /** The answer to a bootstrap: the genesis AUM while lock is on, the disablement secret once it is off. */
    public record Bootstrap(byte[] genesisAum, byte[] disablementSecret) {
    }

    /** This side of a sync: the head, the ancestors offered, and the AUMs the client lacks (encoded). */
    public record SyncOffer(AumHash head, List<AumHash> ancestors, List<byte[]> missing) {
    }

    private final Writer writer;
    private final TailnetLockStore store;
    private final NodeStore nodes;
    private final AuditStore audit;
    private final Snapshots snapshots;
    private final InForce<Standing> current;
    /** Genesis AUMs between init begin and finish, by the node that began: nothing is kept before finish. */
    private final Map<Long, LockChain> pending = new ConcurrentHashMap<>();

    TailnetLock(Jdbi jdbi, Writer writer, TailnetLockStore store, NodeStore nodes, AuditStore audit,
            Snapshots snapshots) {
        this.writer = writer;
        this.store = store;
        this.nodes = nodes;
        this.audit = audit;
        this.snapshots = snapshots;
        this.current = new InForce<>(jdbi.withHandle(this::saved), writer, ChangeLog.Kind.TAILNET_LOCK);
    }

    private Standing saved(Handle h) {
        List<byte[]> aums = store.aums(h);
        if (aums.isEmpty()) {
            return Standing.NONE;
        }
        LockChain chain = LockChain.replay(aums.stream().map(Aum::decode).toList());
        return new Standing(chain, store.disablementSecret(h).orElse(null));
    }

    /** Puts the saved standing in force again, read through {@code handle}: another instance changed it. */
    void follow(Handle handle) {
        current.follow(saved(handle));
    }

    /** Set once by {@link Network}: the map context follows each new standing. */
    void onChange(Consumer<LockMapInfo> listener) {
        current.onChange(standing -> listener.accept(standing.mapInfo()));
    }

    /** What maps carry now (null while lock was never initialised). */
    public LockMapInfo mapInfo() {
        return current.get().mapInfo();
    }

    public boolean enabled() {
        return current.get().enabled();
    }

    /**
     * Starts initialisation: checks the genesis AUM (a checkpoint signed by a key it trusts) and answers the nodes that
     * need a signature before lock goes on: every node.
     */
    public List<SignInfo> initBegin(Node requester, byte[] genesis) {
        if (current.get().enabled()) {
            throw MeshException.conflict("tailnet lock is already enabled");
        }
        LockChain chain = LockChain.start(Aum.decode(genesis));
        pending.put(requester.id(), chain);
        return snapshots.current().entries().values().stream()
                .map(entry -> new SignInfo(entry.node().id(), entry.node().nodeKey())).toList();
    }

    /**
     * Enables lock with the genesis AUM {@code requester} began with and the signatures it made (by node id): each is
     * checked against the genesis state and kept on its node. Nodes without one are locked out until signed.
     */
    public LockMapInfo initFinish(Node requester, Map<Long, byte[]> signatures) {
        LockChain chain = pending.get(requester.id());
        if (chain == null) {
            throw MeshException.invalid("no initialisation was begun by this node (init/begin first)");
        }
        Map<Long, String> checked = new LinkedHashMap<>();
        signatures.forEach((nodeId, bytes) -> {
            Node node = snapshots.current().node(nodeId).orElseThrow(() ->
                    MeshException.invalid("a signature is for node " + nodeId + ", which does not exist"));
            NodeKeySignature signature = NodeKeySignature.decode(bytes);
            signature.verify(node.nodeKey(), chain.state());
            checked.put(nodeId, signature.base64());
        });
        Standing next = writer.machineChange(actor(requester), (h, now) -> {
            if (current.get().enabled()) {
                throw MeshException.conflict("tailnet lock is already enabled");
            }
            store.clear(h);
            store.append(h, 0, chain.head().text(), chain.genesis().encoded(), now);
            for (Node node : nodes.all(h)) {
                String signature = checked.get(node.id());
                if (!java.util.Objects.equals(signature, node.keySignature())) {
                    nodes.update(h, node.withKeySignature(signature));
                }
            }
            audit.append(h, entry(requester, now, "lock.init", chain.head().text(), Map.of(
                    "trustedKeys", String.join(" ", chain.state().keys().stream().map(k -> k.text()).toList()),
                    "signedNodes", String.valueOf(checked.size()))));
            Standing standing = new Standing(chain, null);
            current.putOnCommit(h, standing);
            return standing;
        });
        pending.remove(requester.id());
        return next.mapInfo();
    }

    /** What a client changing its lock standing needs: the genesis to start from, or the secret to disable with. */
    public Bootstrap bootstrap() {
        Standing standing = current.get();
        if (standing.chain() == null) {
            throw MeshException.notFound("tailnet lock was never initialised");
        }
        if (standing.disablementSecret() != null) {
            return new Bootstrap(null, HexFormat.of().parseHex(standing.disablementSecret()));
        }
        return new Bootstrap(standing.chain().genesis().encoded(), null);
    }

    /** This side of a sync with a client offering {@code head} and {@code ancestors}. */
    public SyncOffer offer(AumHash head, List<AumHash> ancestors) {
        LockChain chain = enabledChain();
        List<byte[]> missing = chain.missingFor(head, ancestors).stream().map(Aum::encoded).toList();
        return new SyncOffer(chain.head(), chain.offeredAncestors(), missing);
    }

    /**
     * Takes the AUMs a client has and this side lacks (those it has already are skipped), each checked against the
     * state before it; answers the head after them.
     */
    public AumHash receive(Node requester, List<byte[]> encoded) {
        List<Aum> aums = encoded.stream().map(Aum::decode).toList();
        if (aums.stream().allMatch(aum -> enabledChain().contains(aum.hash()))) {
            return enabledChain().head();
        }
        return writer.machineChange(actor(requester), (h, now) -> {
            LockChain chain = enabledChain();
            int position = chain.aums().size();
            List<String> added = new ArrayList<>();
            for (Aum aum : aums) {
                if (chain.contains(aum.hash())) {
                    continue;
                }
                chain = chain.append(aum);
                store.append(h, position++, aum.hash().text(), aum.encoded(), now);
                added.add(aum.kind().name().toLowerCase().replace('_', '-') + " " + aum.hash().text());
            }
            audit.append(h, entry(requester, now, "lock.update", chain.head().text(), Map.of(
                    "aums", String.join(", ", added),
                    "trustedKeys", String.join(" ", chain.state().keys().stream().map(k -> k.text()).toList()))));
            current.putOnCommit(h, new Standing(chain, null));
            return chain.head();
        });
    }

    /** Keeps a node-key signature that a trusted key made, on the node whose key it signs. */
    public Node sign(Node requester, byte[] encoded) {
        LockChain chain = enabledChain();
        NodeKeySignature signature = NodeKeySignature.decode(encoded);
        NodePublicKey signed = signature.nodeKey();
        if (signed == null) {
            throw MeshException.invalid("the signature names no node key");
        }
        signature.verify(signed, chain.state());
        return writer.machineChange(actor(requester), (h, now) -> {
            Node node = nodes.byNodeKey(h, signed).orElseThrow(() ->
                    MeshException.notFound("no node has the key " + signed.toText()));
            Node updated = node.withKeySignature(signature.base64());
            nodes.update(h, updated);
            audit.append(h, entry(requester, now, "lock.sign", String.valueOf(node.id()), Map.of(
                    "nodeKey", signed.toText(), "signingKey", "tlpub:" + signature.authorizingKeyIdHex())));
            return updated;
        });
    }

    /**
     * Keeps the signature a node sent for its own (new) node key when it registered: after a node-key rotation, its
     * rotation key re-signs the new key ({@code RegisterRequest.NodeKeySignature}). Kept only while lock is on and it
     * authorises the node's key; anything else is left as it was (the registration itself does not depend on it).
     *
     * @return whether it was kept
     */
    public boolean ownSignature(Node node, byte[] encoded) {
        Standing standing = current.get();
        if (!standing.enabled()) {
            return false;
        }
        NodeKeySignature signature;
        try {
            signature = NodeKeySignature.decode(encoded);
            signature.verify(node.nodeKey(), standing.chain().state());
        } catch (MeshException e) {
            LOG.log(System.Logger.Level.INFO, "node " + node.id() + " registered with a node-key signature that does "
                    + "not hold: " + e.getMessage());
            return false;
        }
        if (signature.base64().equals(node.keySignature())) {
            return true;
        }
        writer.machineChange(actor(node), (h, now) -> {
            nodes.byId(h, node.id()).filter(n -> n.nodeKey().equals(node.nodeKey())).ifPresent(current -> {
                nodes.update(h, current.withKeySignature(signature.base64()));
                audit.append(h, entry(node, now, "lock.sign", String.valueOf(node.id()), Map.of(
                        "nodeKey", node.nodeKey().toText(), "signingKey", "tlpub:" + signature.authorizingKeyIdHex(),
                        "kind", signature.kind().name().toLowerCase())));
            });
            return null;
        });
        return true;
    }

    /**
     * Disables lock for everyone, given one of the disablement secrets: clients learn it from the map and the
     * bootstrap answer. Signatures are dropped with the authority they belonged to.
     */
    public void disable(Node requester, byte[] secret) {
        LockChain chain = enabledChain();
        if (secret == null || !chain.state().disabledBy(secret)) {
            throw MeshException.forbidden("incorrect disablement secret");
        }
        writer.machineChange(actor(requester), (h, now) -> {
            store.disabled(h, HexFormat.of().formatHex(secret), now);
            for (Node node : nodes.all(h)) {
                if (node.keySignature() != null) {
                    nodes.update(h, node.withKeySignature(null));
                }
            }
            audit.append(h, entry(requester, now, "lock.disable", chain.head().text(), Map.of()));
            current.putOnCommit(h, new Standing(chain, HexFormat.of().formatHex(secret)));
            return null;
        });
    }

    /** The signatures made by the trusted key {@code keyIdHex} (through rotations), for re-signing before its removal. */
    public List<byte[]> signaturesBy(String keyIdHex) {
        enabledChain();
        List<byte[]> out = new ArrayList<>();
        for (var entry : snapshots.current().entries().values()) {
            String text = entry.node().keySignature();
            if (text == null) {
                continue;
            }
            NodeKeySignature signature = NodeKeySignature.decodeBase64(text);
            try {
                if (signature.authorizingKeyIdHex().equals(keyIdHex)) {
                    out.add(signature.encoded());
                }
            } catch (MeshException e) {
                // a signature of an unknown kind is no one's
            }
        }
        return out;
    }

    /** The lock as it stands: read-only, for anyone who may read the network's devices. */
    public LockStatus status(Caller caller) {
        caller.require(Nodes.READ_SCOPE);
        return status();
    }

    LockStatus status() {
        Standing standing = current.get();
        if (!standing.enabled()) {
            return new LockStatus(false, standing.chain() == null ? null : standing.chain().head().text(),
                    List.of(), List.of());
        }
        List<LockedNode> locked = new ArrayList<>();
        for (var entry : snapshots.current().entries().values()) {
            lockedOut(entry.node()).ifPresent(locked::add);
        }
        return new LockStatus(true, standing.chain().head().text(), standing.chain().state().keys(), locked);
    }

    /** Whether peers under the lock refuse {@code node}, and why; empty while lock is off or the node is signed. */
    public Optional<LockedNode> lockedOut(Node node) {
        Standing standing = current.get();
        if (!standing.enabled()) {
            return Optional.empty();
        }
        String reason;
        if (node.keySignature() == null) {
            reason = "no signature";
        } else {
            try {
                NodeKeySignature.decodeBase64(node.keySignature()).verify(node.nodeKey(), standing.chain().state());
                return Optional.empty();
            } catch (MeshException e) {
                reason = e.getMessage();
            }
        }
        return Optional.of(new LockedNode(node.id(), node.givenName(), node.nodeKey().toText(), reason));
    }

    private LockChain enabledChain() {
        Standing standing = current.get();
        if (!standing.enabled()) {
            throw MeshException.invalid("tailnet lock is not enabled");
        }
        return standing.chain();
    }

    private static String actor(Node node) {
        return "node:" + node.id();
    }

    private static io.meshcontrol.core.model.AuditEntry entry(Node requester, Instant now, String action, String target,
            Map<String, String> details) {
        return new io.meshcontrol.core.model.AuditEntry(0, now, actor(requester), "", action, target, details);
    }
}
