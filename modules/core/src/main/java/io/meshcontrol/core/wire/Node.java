package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A device as a map message shows it: the self node ({@code MapResponse.Node}) or a peer. Go: {@code tailcfg.Node}.
 * A node is always sent whole; partial updates of a peer go through {@link PeerChange}. Build one with
 * {@link #builder()}.
 *
 * @param id the node's id, never reused; always written
 * @param stableId the node's id as a string, stable for this server; always written
 * @param name the MagicDNS name with a trailing dot ("host.tailnet.example."); clients take the MagicDNS suffix from
 *     their own name; always written
 * @param user the owning user's id; always written, and needs a {@code UserProfiles} entry
 * @param sharer the user who shared the node in, when not the owner; absent when 0
 * @param key the node key (WireGuard key); always written
 * @param keyExpiry when the node key expires; absent when it never does
 * @param keySignature the tailnet-lock signature of the node key; absent without tailnet lock
 * @param machine the machine key; absent when unknown ({@code null}; the zero key is taken as unknown)
 * @param discoKey the disco key from the node's MapRequest; absent when unknown ({@code null}, as the zero key)
 * @param addresses the node's own addresses ({@code /32}, {@code /128}); always written
 * @param allowedIps what to route to the node: its addresses plus approved subnet and exit routes; absent means "same
 *     as addresses" (clients from capver 112); an empty list means "nothing"
 * @param endpoints the node's UDP endpoints (ip:port) for direct connections; absent when none
 * @param legacyDerp the home DERP region in the old form "127.3.3.40:N", for clients before capver 111; absent when
 *     empty (Go field {@code LegacyDERPString}, JSON name {@code DERP})
 * @param homeDerp the home DERP region id (capver 111 and later); absent when 0 (not yet known)
 * @param hostinfo the node's own Hostinfo, passed through (peers find its PeerAPI in {@code Services}); absent when
 *     none
 * @param created when the node was registered; absent when unknown
 * @param cap the node's capability version; absent when 0 (unknown)
 * @param tags the node's ACL tags ("tag:server"); absent when none
 * @param primaryRoutes the subnet routes this node is the primary router for (not its own addresses); absent when none
 * @param lastSeen when the node was last online; sent only while it is offline; absent when unknown or online
 * @param online whether the node is connected to control; absent means unknown
 * @param machineAuthorized whether the node is approved; the self node must have it or the client waits for approval;
 *     absent means false
 * @param capabilities deprecated list of capability names; absent when none (use {@code capMap})
 * @param capMap node attributes and capabilities with optional JSON arguments ({@code null} or a list); absent when
 *     none
 * @param unsignedPeerApiOnly whether the node is outside tailnet lock and may only reach PeerAPIs; absent means false
 * @param computedName the display name, filled in by the client itself; servers leave it absent
 * @param computedNameWithHost the display name with host name, filled in by the client; servers leave it absent
 * @param dataPlaneAuditLogId the per-node id for network flow logs; absent when not logging
 * @param expired whether the node key has expired (clients compute it from keyExpiry too); absent means false
 * @param selfNodeV4MasqAddrForThisPeer the IPv4 address this peer knows the self node by, when masquerading; peers
 *     only; absent normally
 * @param selfNodeV6MasqAddrForThisPeer the same for IPv6; absent normally
 * @param isWireGuardOnly whether this peer is a plain WireGuard endpoint without disco or DERP; absent means false
 * @param isJailed whether the peer may not start connections to the self node; absent means false
 * @param exitNodeDnsResolvers DNS resolvers to use through this WireGuard-only exit node; absent when none
 * @param stableTailnetId the tailnet's stable id, on the self node only (capver 148); absent for peers and before
 */
public record Node(
        @JsonProperty("ID") long id,
        @JsonProperty("StableID") String stableId,
        @JsonProperty("Name") String name,
        @JsonProperty("User") long user,
        @JsonProperty("Sharer") @OmitEmpty long sharer,
        @JsonProperty("Key") NodePublicKey key,
        @JsonProperty("KeyExpiry") @OmitEmpty Instant keyExpiry,
        @JsonProperty("KeySignature") @OmitEmpty Base64Bytes keySignature,
        @JsonProperty("Machine") @OmitEmpty MachinePublicKey machine,
        @JsonProperty("DiscoKey") @OmitEmpty DiscoPublicKey discoKey,
        @JsonProperty("Addresses") List<IpPrefix> addresses,
        @JsonProperty("AllowedIPs") @OmitNull List<IpPrefix> allowedIps,
        @JsonProperty("Endpoints") @OmitEmpty List<IpAddressPort> endpoints,
        @JsonProperty("DERP") @OmitEmpty String legacyDerp,
        @JsonProperty("HomeDERP") @OmitEmpty int homeDerp,
        @JsonProperty("Hostinfo") @OmitNull Hostinfo hostinfo,
        @JsonProperty("Created") @OmitEmpty Instant created,
        @JsonProperty("Cap") @OmitEmpty int cap,
        @JsonProperty("Tags") @OmitEmpty List<String> tags,
        @JsonProperty("PrimaryRoutes") @OmitEmpty List<IpPrefix> primaryRoutes,
        @JsonProperty("LastSeen") @OmitNull Instant lastSeen,
        @JsonProperty("Online") @OmitNull Boolean online,
        @JsonProperty("MachineAuthorized") @OmitEmpty boolean machineAuthorized,
        @JsonProperty("Capabilities") @OmitEmpty List<String> capabilities,
        @JsonProperty("CapMap") @OmitEmpty Map<String, List<RawJson>> capMap,
        @JsonProperty("UnsignedPeerAPIOnly") @OmitEmpty boolean unsignedPeerApiOnly,
        @JsonProperty("ComputedName") @OmitEmpty String computedName,
        @JsonProperty("ComputedNameWithHost") @OmitEmpty String computedNameWithHost,
        @JsonProperty("DataPlaneAuditLogID") @OmitEmpty String dataPlaneAuditLogId,
        @JsonProperty("Expired") @OmitEmpty boolean expired,
        @JsonProperty("SelfNodeV4MasqAddrForThisPeer") @OmitNull IpAddress selfNodeV4MasqAddrForThisPeer,
        @JsonProperty("SelfNodeV6MasqAddrForThisPeer") @OmitNull IpAddress selfNodeV6MasqAddrForThisPeer,
        @JsonProperty("IsWireGuardOnly") @OmitEmpty boolean isWireGuardOnly,
        @JsonProperty("IsJailed") @OmitEmpty boolean isJailed,
        @JsonProperty("ExitNodeDNSResolvers") @OmitEmpty List<DNSResolver> exitNodeDnsResolvers,
        @JsonProperty("StableTailnetID") @OmitEmpty String stableTailnetId) {

    /** The IP address of the legacy {@code DERP} string: loopback, then "DERP" on a QWERTY keyboard's number row. */
    public static final String LEGACY_DERP_IP = "127.3.3.40";

    public Node {
        stableId = Copies.text(stableId);
        name = Copies.text(name);
        key = key == null ? NodePublicKey.ZERO : key;
        keyExpiry = GoTime.orAbsent(keyExpiry);
        keySignature = Copies.orAbsent(keySignature);
        machine = machine == null || machine.isZero() ? null : machine;
        discoKey = discoKey == null || discoKey.isZero() ? null : discoKey;
        addresses = Copies.list(addresses);
        allowedIps = Copies.list(allowedIps);
        endpoints = Copies.orEmpty(endpoints);
        legacyDerp = Copies.text(legacyDerp);
        created = GoTime.orAbsent(created);
        tags = Copies.orEmpty(tags);
        primaryRoutes = Copies.orEmpty(primaryRoutes);
        capabilities = Copies.orEmpty(capabilities);
        capMap = Copies.orEmpty(capMap);
        computedName = Copies.text(computedName);
        computedNameWithHost = Copies.text(computedNameWithHost);
        dataPlaneAuditLogId = Copies.text(dataPlaneAuditLogId);
        exitNodeDnsResolvers = Copies.orEmpty(exitNodeDnsResolvers);
        stableTailnetId = Copies.text(stableTailnetId);
    }

    /** The legacy {@code DERP} string for a region, "127.3.3.40:N", for clients before capver 111. */
    public static String legacyDerpString(int regionId) {
        return LEGACY_DERP_IP + ":" + regionId;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this node's values, to change a few. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds a {@link Node}; every field starts absent (or zero). Not thread-safe. */
    public static final class Builder {
        private long id;
        private String stableId;
        private String name;
        private long user;
        private long sharer;
        private NodePublicKey key;
        private Instant keyExpiry;
        private Base64Bytes keySignature;
        private MachinePublicKey machine;
        private DiscoPublicKey discoKey;
        private List<IpPrefix> addresses;
        private List<IpPrefix> allowedIps;
        private List<IpAddressPort> endpoints;
        private String legacyDerp;
        private int homeDerp;
        private Hostinfo hostinfo;
        private Instant created;
        private int cap;
        private List<String> tags;
        private List<IpPrefix> primaryRoutes;
        private Instant lastSeen;
        private Boolean online;
        private boolean machineAuthorized;
        private List<String> capabilities;
        private Map<String, List<RawJson>> capMap;
        private boolean unsignedPeerApiOnly;
        private String computedName;
        private String computedNameWithHost;
        private String dataPlaneAuditLogId;
        private boolean expired;
        private IpAddress selfNodeV4MasqAddrForThisPeer;
        private IpAddress selfNodeV6MasqAddrForThisPeer;
        private boolean isWireGuardOnly;
        private boolean isJailed;
        private List<DNSResolver> exitNodeDnsResolvers;
        private String stableTailnetId;

        private Builder() {
        }

        private Builder(Node n) {
            id = n.id;
            stableId = n.stableId;
            name = n.name;
            user = n.user;
            sharer = n.sharer;
            key = n.key;
            keyExpiry = n.keyExpiry;
            keySignature = n.keySignature;
            machine = n.machine;
            discoKey = n.discoKey;
            addresses = n.addresses;
            allowedIps = n.allowedIps;
            endpoints = n.endpoints;
            legacyDerp = n.legacyDerp;
            homeDerp = n.homeDerp;
            hostinfo = n.hostinfo;
            created = n.created;
            cap = n.cap;
            tags = n.tags;
            primaryRoutes = n.primaryRoutes;
            lastSeen = n.lastSeen;
            online = n.online;
            machineAuthorized = n.machineAuthorized;
            capabilities = n.capabilities;
            capMap = n.capMap;
            unsignedPeerApiOnly = n.unsignedPeerApiOnly;
            computedName = n.computedName;
            computedNameWithHost = n.computedNameWithHost;
            dataPlaneAuditLogId = n.dataPlaneAuditLogId;
            expired = n.expired;
            selfNodeV4MasqAddrForThisPeer = n.selfNodeV4MasqAddrForThisPeer;
            selfNodeV6MasqAddrForThisPeer = n.selfNodeV6MasqAddrForThisPeer;
            isWireGuardOnly = n.isWireGuardOnly;
            isJailed = n.isJailed;
            exitNodeDnsResolvers = n.exitNodeDnsResolvers;
            stableTailnetId = n.stableTailnetId;
        }

        public Builder id(long value) {
            id = value;
            return this;
        }

        public Builder stableId(String value) {
            stableId = value;
            return this;
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder user(long value) {
            user = value;
            return this;
        }

        public Builder sharer(long value) {
            sharer = value;
            return this;
        }

        public Builder key(NodePublicKey value) {
            key = value;
            return this;
        }

        public Builder keyExpiry(Instant value) {
            keyExpiry = value;
            return this;
        }

        public Builder keySignature(Base64Bytes value) {
            keySignature = value;
            return this;
        }

        public Builder machine(MachinePublicKey value) {
            machine = value;
            return this;
        }

        public Builder discoKey(DiscoPublicKey value) {
            discoKey = value;
            return this;
        }

        public Builder addresses(List<IpPrefix> value) {
            addresses = value;
            return this;
        }

        public Builder allowedIps(List<IpPrefix> value) {
            allowedIps = value;
            return this;
        }

        public Builder endpoints(List<IpAddressPort> value) {
            endpoints = value;
            return this;
        }

        public Builder legacyDerp(String value) {
            legacyDerp = value;
            return this;
        }

        public Builder homeDerp(int value) {
            homeDerp = value;
            return this;
        }

        public Builder hostinfo(Hostinfo value) {
            hostinfo = value;
            return this;
        }

        public Builder created(Instant value) {
            created = value;
            return this;
        }

        public Builder cap(int value) {
            cap = value;
            return this;
        }

        public Builder tags(List<String> value) {
            tags = value;
            return this;
        }

        public Builder primaryRoutes(List<IpPrefix> value) {
            primaryRoutes = value;
            return this;
        }

        public Builder lastSeen(Instant value) {
            lastSeen = value;
            return this;
        }

        public Builder online(Boolean value) {
            online = value;
            return this;
        }

        public Builder machineAuthorized(boolean value) {
            machineAuthorized = value;
            return this;
        }

        public Builder capabilities(List<String> value) {
            capabilities = value;
            return this;
        }

        public Builder capMap(Map<String, List<RawJson>> value) {
            capMap = value;
            return this;
        }

        public Builder unsignedPeerApiOnly(boolean value) {
            unsignedPeerApiOnly = value;
            return this;
        }

        public Builder computedName(String value) {
            computedName = value;
            return this;
        }

        public Builder computedNameWithHost(String value) {
            computedNameWithHost = value;
            return this;
        }

        public Builder dataPlaneAuditLogId(String value) {
            dataPlaneAuditLogId = value;
            return this;
        }

        public Builder expired(boolean value) {
            expired = value;
            return this;
        }

        public Builder selfNodeV4MasqAddrForThisPeer(IpAddress value) {
            selfNodeV4MasqAddrForThisPeer = value;
            return this;
        }

        public Builder selfNodeV6MasqAddrForThisPeer(IpAddress value) {
            selfNodeV6MasqAddrForThisPeer = value;
            return this;
        }

        public Builder isWireGuardOnly(boolean value) {
            isWireGuardOnly = value;
            return this;
        }

        public Builder isJailed(boolean value) {
            isJailed = value;
            return this;
        }

        public Builder exitNodeDnsResolvers(List<DNSResolver> value) {
            exitNodeDnsResolvers = value;
            return this;
        }

        public Builder stableTailnetId(String value) {
            stableTailnetId = value;
            return this;
        }

        public Node build() {
            return new Node(id, stableId, name, user, sharer, key, keyExpiry, keySignature, machine, discoKey,
                    addresses, allowedIps, endpoints, legacyDerp, homeDerp, hostinfo, created, cap, tags,
                    primaryRoutes, lastSeen, online, machineAuthorized, capabilities, capMap, unsignedPeerApiOnly,
                    computedName, computedNameWithHost, dataPlaneAuditLogId, expired, selfNodeV4MasqAddrForThisPeer,
                    selfNodeV6MasqAddrForThisPeer, isWireGuardOnly, isJailed, exitNodeDnsResolvers, stableTailnetId);
        }
    }
}
