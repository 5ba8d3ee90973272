package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.NodePublicKey;
import java.util.List;
import java.util.Map;

/**
 * The tailnet lock's requests and answers on {@code /machine/tka/*} (Go: {@code tailcfg/tka.go}, one record per Go type
 * here, named as there). Clients send each as a GET with a JSON body over their control connection; every request
 * carries the client's capability version and its current node key. AUMs and node-key signatures travel as base64 of
 * their CBOR encodings; AUM hashes as base32 text.
 */
public final class TKA {

    private TKA() {
    }

    public static final String INIT_BEGIN = "/machine/tka/init/begin";
    public static final String INIT_FINISH = "/machine/tka/init/finish";
    public static final String BOOTSTRAP = "/machine/tka/bootstrap";
    public static final String SYNC_OFFER = "/machine/tka/sync/offer";
    public static final String SYNC_SEND = "/machine/tka/sync/send";
    public static final String DISABLE = "/machine/tka/disable";
    public static final String SIGN = "/machine/tka/sign";
    public static final String AFFECTED_SIGS = "/machine/tka/affected-sigs";

    /** Go: {@code TKAInitBeginRequest}: the genesis AUM a signing node proposes. */
    public record TKAInitBeginRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey, @JsonProperty("GenesisAUM") Base64Bytes genesisAum) {
    }

    /** Go: {@code TKASignInfo}: a node to sign before lock goes on; {@code RotationPubkey} is never set here. */
    public record TKASignInfo(@JsonProperty("NodeID") long nodeId,
            @JsonProperty("NodePublic") NodePublicKey nodePublic,
            @JsonProperty("RotationPubkey") @OmitEmpty Base64Bytes rotationPubkey) {
    }

    /** Go: {@code TKAInitBeginResponse}. */
    public record TKAInitBeginResponse(@JsonProperty("NeedSignatures") List<TKASignInfo> needSignatures) {
    }

    /** Go: {@code TKAInitFinishRequest}: a signature per node id; the support disablement secret is not kept here. */
    public record TKAInitFinishRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey,
            @JsonProperty("Signatures") Map<Long, Base64Bytes> signatures,
            @JsonProperty("SupportDisablement") Base64Bytes supportDisablement) {
    }

    /** Go: {@code TKABootstrapRequest}: the client's head, empty when it holds no lock. */
    public record TKABootstrapRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey, @JsonProperty("Head") String head) {
    }

    /** Go: {@code TKABootstrapResponse}: the genesis AUM to start from, or the secret to disable with. */
    public record TKABootstrapResponse(@JsonProperty("GenesisAUM") @OmitNull Base64Bytes genesisAum,
            @JsonProperty("DisablementSecret") @OmitNull Base64Bytes disablementSecret) {
    }

    /** Go: {@code TKASyncOfferRequest}. */
    public record TKASyncOfferRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey, @JsonProperty("Head") String head,
            @JsonProperty("Ancestors") List<String> ancestors) {
    }

    /** Go: {@code TKASyncOfferResponse}: this side's head and ancestors, and the AUMs the client lacks. */
    public record TKASyncOfferResponse(@JsonProperty("Head") String head,
            @JsonProperty("Ancestors") List<String> ancestors,
            @JsonProperty("MissingAUMs") List<Base64Bytes> missingAums) {
    }

    /** Go: {@code TKASyncSendRequest}: the AUMs the server lacks ({@code Interactive} from lock add/remove). */
    public record TKASyncSendRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey, @JsonProperty("Head") String head,
            @JsonProperty("MissingAUMs") List<Base64Bytes> missingAums,
            @JsonProperty("Interactive") boolean interactive) {
    }

    /** Go: {@code TKASyncSendResponse}: the head after the AUMs sent. */
    public record TKASyncSendResponse(@JsonProperty("Head") String head) {
    }

    /** Go: {@code TKADisableRequest}. */
    public record TKADisableRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey, @JsonProperty("Head") String head,
            @JsonProperty("DisablementSecret") Base64Bytes disablementSecret) {
    }

    /** Go: {@code TKASubmitSignatureRequest}. */
    public record TKASubmitSignatureRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey,
            @JsonProperty("Signature") Base64Bytes signature) {
    }

    /** Go: {@code TKASignaturesUsingKeyRequest}. */
    public record TKASignaturesUsingKeyRequest(@JsonProperty("Version") int version,
            @JsonProperty("NodeKey") NodePublicKey nodeKey, @JsonProperty("KeyID") Base64Bytes keyId) {
    }

    /** Go: {@code TKASignaturesUsingKeyResponse}. */
    public record TKASignaturesUsingKeyResponse(@JsonProperty("Signatures") List<Base64Bytes> signatures) {
    }
}
