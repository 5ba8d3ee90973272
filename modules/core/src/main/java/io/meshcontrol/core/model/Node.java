package io.meshcontrol.core.model;

import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Instant;
import java.util.List;

/**
 * A machine in the network.
 *
 * @param id protocol node id: a number, never reused
 * @param stableId the vendor-shaped stable id ({@code n...CNTRL})
 * @param hostname what the machine calls itself (from its Hostinfo)
 * @param givenName its DNS label in the network, unique; renaming changes this
 * @param userId owner, or null for a tagged node (which belongs to its tags)
 * @param hostinfo the client's Hostinfo JSON, kept as sent so peers receive it unchanged
 * @param authorized false while waiting for device approval
 * @param keyExpiry when the node key expires, or null for never (switched off for the node, or a network whose key
 *     lifetime is zero)
 * @param lastSeen when it was last connected, or null if never
 * @param advertisedRoutes routes the client offers to serve (its Hostinfo.RoutableIPs): subnets, and both exit
 *     routes for an exit node
 * @param approvedRoutes routes an administrator or an auto-approver allowed; an approval may be given before the
 *     route is advertised and takes effect once it is
 * @param suspended set by an administrator: the node keeps its row but has no peers and is no one's peer
 * @param globalExitPriority null while the node is not marked as a global exit node; when marked, the mark's priority
 *     (0 or more, higher preferred; 0 is no preference)
 * @param keyExpiryDisabled true when an administrator switched key expiry off for this node (the vendor's
 *     {@code keyExpiryDisabled}); kept apart from a null {@code keyExpiry}, which a zero network lifetime also gives
 * @param keySignature the tailnet-lock signature of its node key (base64 of the client's encoding, as submitted), or
 *     null when it has none
 */
public record Node(
        long id,
        String stableId,
        MachinePublicKey machineKey,
        NodePublicKey nodeKey,
        DiscoPublicKey discoKey,
        String hostname,
        String givenName,
        Long userId,
        List<String> tags,
        String ipv4,
        String ipv6,
        String hostinfo,
        List<String> endpoints,
        boolean authorized,
        boolean ephemeral,
        Long preAuthKeyId,
        RegisterMethod registerMethod,
        Instant createdAt,
        Instant lastSeen,
        Instant keyExpiry,
        List<IpPrefix> advertisedRoutes,
        List<IpPrefix> approvedRoutes,
        boolean suspended,
        Integer globalExitPriority,
        boolean keyExpiryDisabled,
        String keySignature) {

    public enum RegisterMethod {
        AUTH_KEY("authkey"),
        INTERACTIVE("interactive"),
        API("api");

        private final String wireName;

        RegisterMethod(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static RegisterMethod fromWireName(String name) {
            for (RegisterMethod method : values()) {
                if (method.wireName.equals(name)) {
                    return method;
                }
            }
            throw new IllegalArgumentException("unknown register method " + name);
        }
    }

    public Node {
        tags = List.copyOf(tags);
        endpoints = List.copyOf(endpoints);
        advertisedRoutes = List.copyOf(advertisedRoutes);
        approvedRoutes = List.copyOf(approvedRoutes);
    }

    /** A node without a tailnet-lock signature. */
    public Node(long id, String stableId, MachinePublicKey machineKey, NodePublicKey nodeKey, DiscoPublicKey discoKey,
            String hostname, String givenName, Long userId, List<String> tags, String ipv4, String ipv6,
            String hostinfo, List<String> endpoints, boolean authorized, boolean ephemeral, Long preAuthKeyId,
            RegisterMethod registerMethod, Instant createdAt, Instant lastSeen, Instant keyExpiry,
            List<IpPrefix> advertisedRoutes, List<IpPrefix> approvedRoutes, boolean suspended,
            Integer globalExitPriority, boolean keyExpiryDisabled) {
        this(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6, hostinfo,
                endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, null);
    }

    /** The node with this tailnet-lock signature (null: none). */
    public Node withKeySignature(String signature) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, signature);
    }

    public boolean isTagged() {
        return !tags.isEmpty();
    }

    /** Approved and not suspended: the node takes part in the network (has peers, is a peer, serves routes). */
    public boolean admitted() {
        return authorized && !suspended;
    }

    public boolean isKeyExpired(Instant now) {
        return keyExpiry != null && !now.isBefore(keyExpiry);
    }

    public Node withGivenName(String name) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, name, userId, tags, ipv4, ipv6, hostinfo,
                endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    public Node withAddresses(String newIpv4, String newIpv6) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, newIpv4,
                newIpv6, hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen,
                keyExpiry, advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    /** Key expiry on: the key expires at {@code expiry} (null: never, when the network's key lifetime is zero). */
    public Node withKeyExpiry(Instant expiry) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, expiry,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, false, keySignature);
    }

    /** Key expiry switched off for this node by an administrator: its key never expires, whatever the network's. */
    public Node withKeyExpiryDisabled() {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, null,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, true, keySignature);
    }

    public Node withAuthorized(boolean approved) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, approved, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    public Node withSuspended(boolean suspend) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approvedRoutes, suspend, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    /** What the client reports about itself; {@code advertised} comes from the same Hostinfo's RoutableIPs. */
    public Node withClientState(DiscoPublicKey disco, List<String> newEndpoints, String newHostinfo,
            List<IpPrefix> advertised) {
        return new Node(id, stableId, machineKey, nodeKey, disco, hostname, givenName, userId, tags, ipv4, ipv6,
                newHostinfo, newEndpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen,
                keyExpiry, advertised, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    public Node withApprovedRoutes(List<IpPrefix> approved) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approved, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    public boolean isGlobalExitNode() {
        return globalExitPriority != null;
    }

    /** Marked as a global exit node with this priority, or unmarked with {@code null}. */
    public Node withGlobalExitPriority(Integer priority) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, userId, tags, ipv4, ipv6,
                hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, keyExpiry,
                advertisedRoutes, approvedRoutes, suspended, priority, keyExpiryDisabled, keySignature);
    }

    /** Routes both advertised and approved: what this node may route (HA decides which subnets it serves). */
    public List<IpPrefix> activeRoutes() {
        if (approvedRoutes.isEmpty() || advertisedRoutes.isEmpty()) {
            return List.of(); // most nodes: no stream for them (full maps ask this of every peer)
        }
        return advertisedRoutes.stream().filter(approvedRoutes::contains).toList();
    }

    public Node withNodeKey(NodePublicKey key, Instant expiry) {
        return new Node(id, stableId, machineKey, key, discoKey, hostname, givenName, userId, tags, ipv4, ipv6, hostinfo,
                endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt, lastSeen, expiry,
                advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }

    /** Tagging hands a user's node to its tags; clearing tags is not done here (the node needs an owner). */
    public Node withTags(List<String> newTags) {
        return new Node(id, stableId, machineKey, nodeKey, discoKey, hostname, givenName, newTags.isEmpty() ? userId : null,
                newTags, ipv4, ipv6, hostinfo, endpoints, authorized, ephemeral, preAuthKeyId, registerMethod, createdAt,
                lastSeen, keyExpiry, advertisedRoutes, approvedRoutes, suspended, globalExitPriority, keyExpiryDisabled, keySignature);
    }
}
