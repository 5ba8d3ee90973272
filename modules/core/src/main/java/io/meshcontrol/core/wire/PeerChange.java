package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpAddressPort;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A partial update of one peer in {@code MapResponse.PeersChangedPatch}: only the fields present change, the rest of
 * the peer stays as the client has it. Go: {@code tailcfg.PeerChange}; the client applies it in
 * {@code controlclient/map.go} and ignores a patch for a peer it does not know.
 *
 * <p>Where the client tests for "present" rather than "non-empty" (endpoints, CapMap, key signature), an empty value
 * is written ({@code []}, <code>{}</code>) and clears the field, which Go's own encoder could not say.
 *
 * @param nodeId the peer being changed; always written
 * @param derpRegion the peer's new home DERP region; absent (0) means unchanged
 * @param cap the peer's new capability version; absent (0) means unchanged
 * @param capMap the peer's whole new CapMap; absent means unchanged, empty clears it
 * @param endpoints the peer's new endpoints; absent means unchanged, empty clears them
 * @param key the peer's new node key (after rotation); absent means unchanged
 * @param keySignature the new key's tailnet-lock signature; absent means unchanged
 * @param discoKey the peer's new disco key; absent means unchanged
 * @param online whether the peer is now connected; absent means unchanged
 * @param lastSeen when the peer was last seen; absent means unchanged
 * @param keyExpiry the new key expiry; absent means unchanged, {@link GoTime#ZERO} means "never expires"
 */
public record PeerChange(
        @JsonProperty("NodeID") long nodeId,
        @JsonProperty("DERPRegion") @OmitEmpty int derpRegion,
        @JsonProperty("Cap") @OmitEmpty int cap,
        @JsonProperty("CapMap") @OmitNull Map<String, List<RawJson>> capMap,
        @JsonProperty("Endpoints") @OmitNull List<IpAddressPort> endpoints,
        @JsonProperty("Key") @OmitNull NodePublicKey key,
        @JsonProperty("KeySignature") @OmitNull Base64Bytes keySignature,
        @JsonProperty("DiscoKey") @OmitNull DiscoPublicKey discoKey,
        @JsonProperty("Online") @OmitNull Boolean online,
        @JsonProperty("LastSeen") @OmitNull Instant lastSeen,
        @JsonProperty("KeyExpiry") @OmitNull Instant keyExpiry) {

    public PeerChange {
        capMap = Copies.map(capMap);
        endpoints = Copies.list(endpoints);
    }

    /** A change of one peer; add fields with the builder's setters. */
    public static Builder of(long nodeId) {
        return new Builder(nodeId);
    }

    /** Builds a {@link PeerChange}; every field but the node id starts absent. Not thread-safe. */
    public static final class Builder {
        private final long nodeId;
        private int derpRegion;
        private int cap;
        private Map<String, List<RawJson>> capMap;
        private List<IpAddressPort> endpoints;
        private NodePublicKey key;
        private Base64Bytes keySignature;
        private DiscoPublicKey discoKey;
        private Boolean online;
        private Instant lastSeen;
        private Instant keyExpiry;

        private Builder(long nodeId) {
            this.nodeId = nodeId;
        }

        public Builder derpRegion(int value) {
            derpRegion = value;
            return this;
        }

        public Builder cap(int value) {
            cap = value;
            return this;
        }

        public Builder capMap(Map<String, List<RawJson>> value) {
            capMap = value;
            return this;
        }

        public Builder endpoints(List<IpAddressPort> value) {
            endpoints = value;
            return this;
        }

        public Builder key(NodePublicKey value) {
            key = value;
            return this;
        }

        public Builder keySignature(Base64Bytes value) {
            keySignature = value;
            return this;
        }

        public Builder discoKey(DiscoPublicKey value) {
            discoKey = value;
            return this;
        }

        public Builder online(Boolean value) {
            online = value;
            return this;
        }

        public Builder lastSeen(Instant value) {
            lastSeen = value;
            return this;
        }

        public Builder keyExpiry(Instant value) {
            keyExpiry = value;
            return this;
        }

        public PeerChange build() {
            return new PeerChange(nodeId, derpRegion, cap, capMap, endpoints, key, keySignature, discoKey, online,
                    lastSeen, keyExpiry);
        }
    }
}
