package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpAddressPort;
import java.time.Instant;
import java.util.List;

/**
 * What a client posts to {@code /machine/map}. Go: {@code tailcfg.MapRequest}. Modern clients send two kinds: a
 * streaming poll ({@code Stream: true}; from capver 68 read-only, its Hostinfo and Endpoints ignored) and a
 * "lite" update ({@code Stream: false, OmitPeers: true}) whenever their Hostinfo, endpoints or disco key change, to
 * which the server only answers 200. The server only reads it; unknown fields from newer clients are skipped.
 *
 * @param version the client's capability version ({@link CapabilityVersion}); always sent
 * @param compress "zstd" when the client wants compressed map messages (real clients always do); absent for none
 * @param keepAlive whether the server should send keep-alive messages (real clients always ask)
 * @param nodeKey the client's current node key; always sent
 * @param discoKey the client's disco key, passed to peers as {@code Node.DiscoKey}; always sent
 * @param hardwareAttestationKey the public key of a hardware-bound attestation key ({@code hwattestpub:...}, capver
 *     130); absent when the client has none
 * @param hardwareAttestationKeySignature that key's signature over "timestamp|node key"; absent when none
 * @param hardwareAttestationKeySignatureTimestamp when that signature was made; absent when none
 * @param stream whether the client wants a long poll of many messages; absent means one answer, then close
 * @param hostinfo the client's Hostinfo; always sent, but ignored on streaming requests from capver 68
 * @param mapSessionHandle a request to resume an earlier map session (the server may ignore it); absent normally
 * @param mapSessionSeq the last message the client processed in that session; absent with no handle
 * @param endpoints the client's UDP endpoints, passed to peers as {@code Node.Endpoints}; absent when none
 * @param endpointTypes the kind of each endpoint (1 local, 2 STUN, 3 port-mapped, 4 STUN with local port, 5
 *     configured), parallel to {@code endpoints}; absent when none
 * @param tkaHead the client's tailnet-lock head; absent without tailnet lock
 * @param readOnly deprecated, false from capver 68; absent means false
 * @param omitPeers whether the client may be answered without peers (set on lite updates)
 * @param debugFlags debugging features the client reports ("warn-ip-forwarding-off" ...); absent when none
 * @param connectionHandleForTest an opaque string for tests; absent normally
 */
public record MapRequest(
        @JsonProperty("Version") int version,
        @JsonProperty("Compress") @OmitEmpty String compress,
        @JsonProperty("KeepAlive") @OmitEmpty boolean keepAlive,
        @JsonProperty("NodeKey") NodePublicKey nodeKey,
        @JsonProperty("DiscoKey") DiscoPublicKey discoKey,
        @JsonProperty("HardwareAttestationKey") @OmitEmpty String hardwareAttestationKey,
        @JsonProperty("HardwareAttestationKeySignature") @OmitEmpty Base64Bytes hardwareAttestationKeySignature,
        @JsonProperty("HardwareAttestationKeySignatureTimestamp") @OmitEmpty
                Instant hardwareAttestationKeySignatureTimestamp,
        @JsonProperty("Stream") @OmitEmpty boolean stream,
        @JsonProperty("Hostinfo") Hostinfo hostinfo,
        @JsonProperty("MapSessionHandle") @OmitEmpty String mapSessionHandle,
        @JsonProperty("MapSessionSeq") @OmitEmpty long mapSessionSeq,
        @JsonProperty("Endpoints") @OmitEmpty List<IpAddressPort> endpoints,
        @JsonProperty("EndpointTypes") @OmitEmpty List<Integer> endpointTypes,
        @JsonProperty("TKAHead") @OmitEmpty String tkaHead,
        @JsonProperty("ReadOnly") @OmitEmpty boolean readOnly,
        @JsonProperty("OmitPeers") @OmitEmpty boolean omitPeers,
        @JsonProperty("DebugFlags") @OmitEmpty List<String> debugFlags,
        @JsonProperty("ConnectionHandleForTest") @OmitEmpty String connectionHandleForTest) {

    /** The value of {@code Compress} that asks for zstd. */
    public static final String ZSTD = "zstd";

    public MapRequest {
        compress = Copies.text(compress);
        nodeKey = nodeKey == null ? NodePublicKey.ZERO : nodeKey;
        discoKey = discoKey == null ? DiscoPublicKey.ZERO : discoKey;
        hardwareAttestationKey = Copies.text(hardwareAttestationKey);
        hardwareAttestationKeySignature = Copies.orAbsent(hardwareAttestationKeySignature);
        hardwareAttestationKeySignatureTimestamp = GoTime.orAbsent(hardwareAttestationKeySignatureTimestamp);
        mapSessionHandle = Copies.text(mapSessionHandle);
        endpoints = Copies.orEmpty(endpoints);
        endpointTypes = Copies.orEmpty(endpointTypes);
        tkaHead = Copies.text(tkaHead);
        debugFlags = Copies.orEmpty(debugFlags);
        connectionHandleForTest = Copies.text(connectionHandleForTest);
    }

    /** Whether the answer must be zstd-compressed. */
    public boolean wantsZstd() {
        return ZSTD.equals(compress);
    }

    /**
     * Whether this is a read-only streaming poll whose Hostinfo and Endpoints the server ignores (capver 68 and
     * later, {@link CapabilityVersion#STREAM_IS_READ_ONLY}).
     */
    public boolean isReadOnlyStream() {
        return stream && version >= CapabilityVersion.STREAM_IS_READ_ONLY;
    }

    /** Whether this is a lite update: apply Hostinfo and endpoints, answer 200 with no body. */
    public boolean isLiteUpdate() {
        return !stream && omitPeers && !readOnly;
    }
}
