package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.routes.ExitNodeSteering;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.CapabilityVersion;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Every node's wire form as its peers see it, built (Hostinfo parsed, JSON encoded) once per change of the node and
 * shared by all map sessions: what a session sends for a peer is this object, not a copy, and what it remembers of a
 * peer is only whether it sent it (see {@link MapSessionState}). One instance per server; thread-safe.
 *
 * <p>A form is reused while it was built from the same row (the entry's {@code rowVersion}, which changes with every
 * write of the row but a last-seen time and when the route election touches the node), the same online state (and,
 * offline, the same last-seen time), the same MagicDNS suffix, the same routes served, the same exit-node
 * suggestion and priority, and the same key-expired state:
 * exactly what {@link WireNodes#peer} reads. Each node keeps an online and an offline form, so that a node going away
 * and coming back, the bulk of all changes, builds nothing again, and map sessions still working from a snapshot a
 * few versions old (a mass reconnect) find the form of their version rather than each building it anew. Clients
 * before capability version {@value CapabilityVersion#HOME_DERP} get forms of their own (the legacy DERP string).
 *
 * <p>Nodes are also grouped in blocks of {@value #BLOCK_IDS} consecutive ids. A full map that shows a viewer every
 * node of a block in its shared form sends the block's {@link EncodedNodes.Block}, kept here while its forms stay
 * the same, so that the block is compressed once for all such maps rather than once per map (a mass reconnect sends
 * N maps of nearly the same N peers).
 */
public final class PeerForms {

    private record Form(long rowVersion, long version, Instant lastSeen, boolean expired, String baseDomain,
            List<IpPrefix> served, ExitView exit, EncodedNodes.Encoded encoded) {

        boolean fits(NodeEntry entry, boolean expired, String baseDomain, List<IpPrefix> served, ExitView exit) {
            return rowVersion == entry.rowVersion() && this.expired == expired
                    && (entry.online() || Objects.equals(lastSeen, entry.node().lastSeen()))
                    && this.baseDomain.equals(baseDomain) && this.served.equals(served) && this.exit.equals(exit);
        }
    }

    /** What the global exit nodes make of a node in its peers' view. */
    private record ExitView(boolean suggested, int priority) {
        /** Most nodes' view: the one instance, so that a full map allocates nothing for them. */
        static final ExitView NONE = new ExitView(false, 0);

        static ExitView of(io.meshcontrol.core.model.Node node, MapInputs in) {
            ExitNodeSteering exits = in.routes().exits();
            boolean suggested = exits.suggests(node);
            int priority = exits.locationPriority(node);
            return suggested || priority != 0 ? new ExitView(suggested, priority) : NONE;
        }
    }

    /** Node ids per block. */
    public static final int BLOCK_IDS = 64;

    /** Forms by slot: legacy or current clients, offline or online. */
    private static final int SLOTS = 4;

    /**
     * Ids per chunk of {@link #forms}: consecutive ids (they are handed out in sequence) share one array of 4 KB. Small
     * enough that a network whose live nodes are scattered among many deleted ids wastes little.
     */
    private static final int CHUNK_IDS = 256;

    /**
     * Forms by chunk of {@value #CHUNK_IDS} ids, each id's {@value #SLOTS} slots side by side: a full map looks up
     * every peer's form, and one map of boxed ids to small arrays cost a fifth of building it (cache misses on
     * scattered entries); a chunk whose nodes are all deleted is dropped.
     */
    private final Map<Long, AtomicReferenceArray<Form>> forms = new ConcurrentHashMap<>();
    private final Map<Long, EncodedNodes.Block> currentBlocks = new ConcurrentHashMap<>();
    private final Map<Long, EncodedNodes.Block> legacyBlocks = new ConcurrentHashMap<>();

    /**
     * The node as a peer with this capability version sees it, before any filtering of its routes for one viewer.
     *
     * @param in of these only the routes (a node's primary routes are part of its form), the MagicDNS suffix and the
     *     time are read: never the snapshot or the rules, which may be another session's
     */
    public EncodedNodes.Encoded peer(NodeEntry entry, MapInputs in, int capVersion) {
        long id = entry.node().id();
        MapContext context = in.context();
        boolean expired = entry.node().isKeyExpired(in.now());
        List<IpPrefix> served = WireNodes.routedTo(entry.node(), in);
        ExitView exit = ExitView.of(entry.node(), in);
        int slot = (capVersion < CapabilityVersion.HOME_DERP ? 2 : 0) + (entry.online() ? 1 : 0);
        AtomicReferenceArray<Form> chunk = chunk(id);
        int at = position(id, slot);
        Form form = chunk.get(at);
        if (form != null && form.fits(entry, expired, context.baseDomain(), served, exit)) {
            return form.encoded();
        }
        Form built = new Form(entry.rowVersion(), entry.version(), entry.node().lastSeen(), expired,
                context.baseDomain(), served, exit, EncodedNodes.Encoded.of(
                        WireNodes.peer(entry.node(), entry.online(), in, capVersion)));
        // Sessions on different snapshots may race: keep the newer node state.
        chunk.accumulateAndGet(at, built, (old, fresh) -> old != null && old.version() > fresh.version() ? old : fresh);
        return built.encoded();
    }

    private AtomicReferenceArray<Form> chunk(long id) {
        long key = Math.floorDiv(id, CHUNK_IDS);
        AtomicReferenceArray<Form> chunk = forms.get(key); // computeIfAbsent may lock a bin even when the key is there
        return chunk != null ? chunk : forms.computeIfAbsent(key, unused -> new AtomicReferenceArray<>(CHUNK_IDS * SLOTS));
    }

    private static int position(long id, int slot) {
        return Math.floorMod(id, CHUNK_IDS) * SLOTS + slot;
    }

    /** The block a node id belongs to. */
    public static long blockOf(long nodeId) {
        return Math.floorDiv(nodeId, BLOCK_IDS);
    }

    /**
     * The block of these forms, as {@link #peer} gave them for every node of block {@code index} in id order: the
     * kept one while it holds the same forms, else a new one that is kept from now on.
     */
    public EncodedNodes.Block block(long index, List<EncodedNodes.Encoded> members, int capVersion) {
        Map<Long, EncodedNodes.Block> blocks = capVersion < CapabilityVersion.HOME_DERP ? legacyBlocks : currentBlocks;
        EncodedNodes.Block kept = blocks.get(index);
        if (kept != null && kept.holds(members)) {
            return kept;
        }
        EncodedNodes.Block made = new EncodedNodes.Block(members);
        blocks.put(index, made);
        return made;
    }

    /** Drops a deleted node's forms (and its block, made again when next needed). */
    public void forget(long nodeId) {
        long key = Math.floorDiv(nodeId, CHUNK_IDS);
        AtomicReferenceArray<Form> chunk = forms.get(key);
        if (chunk != null) {
            for (int slot = 0; slot < SLOTS; slot++) {
                chunk.set(position(nodeId, slot), null);
            }
            if (count(chunk) == 0) {
                // A form another thread adds meanwhile may go with it: it is built again when next needed.
                forms.remove(key, chunk);
            }
        }
        currentBlocks.remove(blockOf(nodeId));
        legacyBlocks.remove(blockOf(nodeId));
    }

    /** How many forms are kept, online and offline ones counted apart (for tests and diagnostics). */
    public int size() {
        return forms.values().stream().mapToInt(PeerForms::count).sum();
    }

    private static int count(AtomicReferenceArray<Form> chunk) {
        int count = 0;
        for (int i = 0; i < chunk.length(); i++) {
            count += chunk.get(i) == null ? 0 : 1;
        }
        return count;
    }
}
