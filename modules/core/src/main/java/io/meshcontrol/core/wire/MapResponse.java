package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One message of a map stream. Go: {@code tailcfg.MapResponse}; the client merges it into what it has in
 * {@code controlclient/map.go}. An absent field means "unchanged": the first message must carry {@code Node} (the
 * client fails with "initial MapResponse lacked node" otherwise) and everything the node needs; later messages carry
 * only what changed. Build one with {@link #builder()}.
 *
 * <p>Deliberate difference from Go's encoder: where the client tells "absent" from "empty" ({@code PacketFilter},
 * {@code Health}), an empty list is written as {@code []} and means "empty" (block everything, healthy), which Go's
 * {@code omitempty} cannot say. Everything else is omitted exactly as Go omits it.
 *
 * @param mapSessionHandle an opaque handle the client may send back to resume this session; absent when the server
 *     does not offer resumption
 * @param seq the message's number in the session, for resumption; absent when 0
 * @param keepAlive this message only keeps the stream alive; all other fields but {@code PingRequest},
 *     {@code ControlTime} and {@code PopBrowserURL} are then ignored
 * @param pingRequest a request to report back (liveness, peer ping, c2n); allowed on any message; absent when none
 * @param popBrowserUrl a URL the client opens in a browser, once per distinct value; absent when none
 * @param node the self node; required in the first message, absent later means unchanged
 * @param derpMap the DERP map; absent means unchanged
 * @param peers the complete, ID-sorted peer list, replacing the client's; used only when non-empty, and then every
 *     peer delta field of the message is ignored; absent means "use the deltas"
 * @param peersChanged peers added or replaced whole (sorted by ID); absent when none
 * @param peersRemoved ids of peers removed; the only way to remove the last peer; absent when none
 * @param peersChangedPatch partial peer updates, applied after the two above; absent when none
 * @param peerSeenChange per peer id (decimal-string keys): true sets LastSeen to now, false clears it; absent when none
 * @param onlineChange per peer id: the peer's new Online value; absent when none
 * @param dnsConfig the DNS settings, replacing the previous ones whole; absent means unchanged
 * @param domain the tailnet's name, shown as the current tailnet; absent (empty) means unchanged
 * @param collectServices whether the client should report its listening services (opt.Bool); absent means unchanged
 * @param packetFilter the "base" packet filter, replacing it; absent means unchanged; an empty list blocks all
 *     incoming traffic
 * @param packetFilters named packet filters (capver 81): a list replaces that name, {@code null} deletes it, key "*"
 *     with {@code null} clears all first; the client concatenates them sorted by name; absent means unchanged
 * @param userProfiles user profiles to add or update (additive, never removed); absent when none
 * @param health health problems to show, replacing the previous ones; absent means unchanged, an empty list means
 *     healthy
 * @param displayMessages structured health messages by id (capver 117): a value sets, {@code null} deletes, key "*"
 *     with {@code null} clears all; absent means unchanged
 * @param sshPolicy the Tailscale SSH policy, replacing the previous one; absent means unchanged
 * @param controlTime the server's clock, for the client's skew checks; absent when not sent
 * @param domainDataPlaneAuditLogId the tailnet's id for network flow logs; absent (empty) means unchanged
 * @param tkaInfo the tailnet lock's standing; absent means unchanged (and, to a client holding no lock, no lock)
 * @param debug debugging instructions; absent means none
 * @param controlDialPlan how to dial control next time; absent means unchanged
 * @param clientVersion whether the client is up to date; absent means unchanged
 * @param defaultAutoUpdate deprecated default for auto-updates (Go field {@code DeprecatedDefaultAutoUpdate}); absent
 *     means unchanged; from capver 131 the {@code default-auto-update} node attribute is used instead
 */
public record MapResponse(
        @JsonProperty("MapSessionHandle") @OmitEmpty String mapSessionHandle,
        @JsonProperty("Seq") @OmitEmpty long seq,
        @JsonProperty("KeepAlive") @OmitEmpty boolean keepAlive,
        @JsonProperty("PingRequest") @OmitNull PingRequest pingRequest,
        @JsonProperty("PopBrowserURL") @OmitEmpty String popBrowserUrl,
        @JsonProperty("Node") @OmitNull Node node,
        @JsonProperty("DERPMap") @OmitNull DERPMap derpMap,
        @JsonProperty("Peers") @OmitEmpty List<Node> peers,
        @JsonProperty("PeersChanged") @OmitEmpty List<Node> peersChanged,
        @JsonProperty("PeersRemoved") @OmitEmpty List<Long> peersRemoved,
        @JsonProperty("PeersChangedPatch") @OmitEmpty List<PeerChange> peersChangedPatch,
        @JsonProperty("PeerSeenChange") @OmitEmpty Map<Long, Boolean> peerSeenChange,
        @JsonProperty("OnlineChange") @OmitEmpty Map<Long, Boolean> onlineChange,
        @JsonProperty("DNSConfig") @OmitNull DNSConfig dnsConfig,
        @JsonProperty("Domain") @OmitEmpty String domain,
        @JsonProperty("CollectServices") @OmitNull Boolean collectServices,
        @JsonProperty("PacketFilter") @OmitNull List<FilterRule> packetFilter,
        @JsonProperty("PacketFilters") @OmitEmpty Map<String, List<FilterRule>> packetFilters,
        @JsonProperty("UserProfiles") @OmitEmpty List<UserProfile> userProfiles,
        @JsonProperty("Health") @OmitNull List<String> health,
        @JsonProperty("DisplayMessages") @OmitEmpty Map<String, DisplayMessage> displayMessages,
        @JsonProperty("SSHPolicy") @OmitNull SSHPolicy sshPolicy,
        @JsonProperty("ControlTime") @OmitNull Instant controlTime,
        @JsonProperty("TKAInfo") @OmitNull TKAInfo tkaInfo,
        @JsonProperty("DomainDataPlaneAuditLogID") @OmitEmpty String domainDataPlaneAuditLogId,
        @JsonProperty("Debug") @OmitNull Debug debug,
        @JsonProperty("ControlDialPlan") @OmitNull ControlDialPlan controlDialPlan,
        @JsonProperty("ClientVersion") @OmitNull ClientVersion clientVersion,
        @JsonProperty("DefaultAutoUpdate") @OmitNull Boolean defaultAutoUpdate) {

    /** The keep-alive message, {@code {"KeepAlive":true}}. */
    public static final MapResponse KEEP_ALIVE = builder().keepAlive(true).build();

    public MapResponse {
        mapSessionHandle = Copies.text(mapSessionHandle);
        popBrowserUrl = Copies.text(popBrowserUrl);
        peers = Copies.orEmpty(peers);
        peersChanged = Copies.orEmpty(peersChanged);
        peersRemoved = Copies.orEmpty(peersRemoved);
        peersChangedPatch = Copies.orEmpty(peersChangedPatch);
        peerSeenChange = Copies.orEmpty(peerSeenChange);
        onlineChange = Copies.orEmpty(onlineChange);
        domain = Copies.text(domain);
        packetFilter = Copies.list(packetFilter);
        packetFilters = Copies.orEmpty(packetFilters);
        userProfiles = Copies.orEmpty(userProfiles);
        health = Copies.list(health);
        displayMessages = Copies.orEmpty(displayMessages);
        domainDataPlaneAuditLogId = Copies.text(domainDataPlaneAuditLogId);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link MapResponse}; every field starts absent ("unchanged"). Not thread-safe. */
    public static final class Builder {
        private String mapSessionHandle;
        private long seq;
        private boolean keepAlive;
        private PingRequest pingRequest;
        private String popBrowserUrl;
        private Node node;
        private DERPMap derpMap;
        private List<Node> peers;
        private List<Node> peersChanged;
        private List<Long> peersRemoved;
        private List<PeerChange> peersChangedPatch;
        private Map<Long, Boolean> peerSeenChange;
        private Map<Long, Boolean> onlineChange;
        private DNSConfig dnsConfig;
        private String domain;
        private Boolean collectServices;
        private List<FilterRule> packetFilter;
        private Map<String, List<FilterRule>> packetFilters;
        private List<UserProfile> userProfiles;
        private List<String> health;
        private Map<String, DisplayMessage> displayMessages;
        private SSHPolicy sshPolicy;
        private Instant controlTime;
        private String domainDataPlaneAuditLogId;
        private Debug debug;
        private ControlDialPlan controlDialPlan;
        private ClientVersion clientVersion;
        private Boolean defaultAutoUpdate;
        private TKAInfo tkaInfo;

        private Builder() {
        }

        public Builder mapSessionHandle(String value) {
            mapSessionHandle = value;
            return this;
        }

        public Builder seq(long value) {
            seq = value;
            return this;
        }

        public Builder keepAlive(boolean value) {
            keepAlive = value;
            return this;
        }

        public Builder pingRequest(PingRequest value) {
            pingRequest = value;
            return this;
        }

        public Builder popBrowserUrl(String value) {
            popBrowserUrl = value;
            return this;
        }

        public Builder node(Node value) {
            node = value;
            return this;
        }

        public Builder derpMap(DERPMap value) {
            derpMap = value;
            return this;
        }

        public Builder peers(List<Node> value) {
            peers = value;
            return this;
        }

        public Builder peersChanged(List<Node> value) {
            peersChanged = value;
            return this;
        }

        public Builder peersRemoved(List<Long> value) {
            peersRemoved = value;
            return this;
        }

        public Builder peersChangedPatch(List<PeerChange> value) {
            peersChangedPatch = value;
            return this;
        }

        public Builder peerSeenChange(Map<Long, Boolean> value) {
            peerSeenChange = value;
            return this;
        }

        public Builder onlineChange(Map<Long, Boolean> value) {
            onlineChange = value;
            return this;
        }

        public Builder dnsConfig(DNSConfig value) {
            dnsConfig = value;
            return this;
        }

        public Builder domain(String value) {
            domain = value;
            return this;
        }

        public Builder collectServices(Boolean value) {
            collectServices = value;
            return this;
        }

        public Builder packetFilter(List<FilterRule> value) {
            packetFilter = value;
            return this;
        }

        public Builder packetFilters(Map<String, List<FilterRule>> value) {
            packetFilters = value;
            return this;
        }

        public Builder userProfiles(List<UserProfile> value) {
            userProfiles = value;
            return this;
        }

        public Builder health(List<String> value) {
            health = value;
            return this;
        }

        public Builder displayMessages(Map<String, DisplayMessage> value) {
            displayMessages = value;
            return this;
        }

        public Builder sshPolicy(SSHPolicy value) {
            sshPolicy = value;
            return this;
        }

        public Builder controlTime(Instant value) {
            controlTime = value;
            return this;
        }

        public Builder domainDataPlaneAuditLogId(String value) {
            domainDataPlaneAuditLogId = value;
            return this;
        }

        public Builder debug(Debug value) {
            debug = value;
            return this;
        }

        public Builder controlDialPlan(ControlDialPlan value) {
            controlDialPlan = value;
            return this;
        }

        public Builder clientVersion(ClientVersion value) {
            clientVersion = value;
            return this;
        }

        public Builder defaultAutoUpdate(Boolean value) {
            defaultAutoUpdate = value;
            return this;
        }

        public Builder tkaInfo(TKAInfo value) {
            tkaInfo = value;
            return this;
        }

        public MapResponse build() {
            return new MapResponse(mapSessionHandle, seq, keepAlive, pingRequest, popBrowserUrl, node, derpMap,
                    peers, peersChanged, peersRemoved, peersChangedPatch, peerSeenChange, onlineChange, dnsConfig,
                    domain, collectServices, packetFilter, packetFilters, userProfiles, health, displayMessages,
                    sshPolicy, controlTime, tkaInfo, domainDataPlaneAuditLogId, debug, controlDialPlan, clientVersion,
                    defaultAutoUpdate);
        }
    }
}
