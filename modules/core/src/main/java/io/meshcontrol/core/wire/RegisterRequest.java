package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.NodePublicKey;
import java.time.Instant;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * What a client posts to {@code /machine/register}: log in, follow an interactive login, rotate its node key, or log
 * out. Go: {@code tailcfg.RegisterRequest}. The server only reads it; unknown fields from newer clients are skipped.
 *
 * @param version the client's capability version ({@link CapabilityVersion}); always sent
 * @param nodeKey the node key being registered (the new one when rotating); always sent
 * @param oldNodeKey the previous node key when rotating; the zero key when there is none
 * @param nlKey the client's tailnet-lock public key ({@code nlpub:...}); always sent, kept as text because this server
 *     does not implement tailnet lock
 * @param auth the pre-auth key, when the client logs in with one; absent otherwise
 * @param expiry the requested key expiry; {@code null} (Go's zero time) for a plain login or restart; a time in the
 *     past together with the current node key means log out (clients send {@code 1970-01-01T00:02:03Z})
 * @param followup the AuthURL the client is waiting on (a long poll until the user finishes logging in); {@code ""}
 *     otherwise
 * @param hostinfo the client's description of itself; always sent by real clients ({@code null} is possible in Go)
 * @param ephemeral whether the client asks to be an ephemeral node ({@code --state=mem:}); absent means false
 * @param nodeKeySignature a tailnet-lock signature for the new node key; {@code null} when the client has none
 * @param signatureType how {@code signature} was made, as Go's text ("signature-v1", "signature-v2"); absent for none
 * @param timestamp when the request was made, against replays; absent on old clients
 * @param deviceCert an X.509 device certificate for signed requests; absent normally
 * @param signature a signature over the request by the device certificate; absent normally
 * @param tailnet the tailnet the client asks to join ({@code required:} prefix: mandatory); absent normally
 */
public record RegisterRequest(
        @JsonProperty("Version") int version,
        @JsonProperty("NodeKey") NodePublicKey nodeKey,
        @JsonProperty("OldNodeKey") NodePublicKey oldNodeKey,
        @JsonProperty("NLKey") String nlKey,
        @JsonProperty("Auth") @OmitNull Auth auth,
        @JsonProperty("Expiry") @JsonSerialize(nullsUsing = GoTime.ZeroWriter.class) Instant expiry,
        @JsonProperty("Followup") String followup,
        @JsonProperty("Hostinfo") Hostinfo hostinfo,
        @JsonProperty("Ephemeral") @OmitEmpty boolean ephemeral,
        @JsonProperty("NodeKeySignature") Base64Bytes nodeKeySignature,
        @JsonProperty("SignatureType") @OmitEmpty String signatureType,
        @JsonProperty("Timestamp") @OmitNull Instant timestamp,
        @JsonProperty("DeviceCert") @OmitEmpty Base64Bytes deviceCert,
        @JsonProperty("Signature") @OmitEmpty Base64Bytes signature,
        @JsonProperty("Tailnet") @OmitEmpty String tailnet) {

    /** The text of the zero tailnet-lock key, which Go writes when a client has none. */
    public static final String ZERO_NL_KEY = "nlpub:" + "0".repeat(64);

    public RegisterRequest {
        nodeKey = nodeKey == null ? NodePublicKey.ZERO : nodeKey;
        oldNodeKey = oldNodeKey == null ? NodePublicKey.ZERO : oldNodeKey;
        nlKey = nlKey == null || nlKey.isEmpty() ? ZERO_NL_KEY : nlKey;
        expiry = GoTime.orAbsent(expiry);
        followup = Copies.text(followup);
        signatureType = Copies.text(signatureType);
        tailnet = Copies.text(tailnet);
        deviceCert = Copies.orAbsent(deviceCert);
        signature = Copies.orAbsent(signature);
    }

    /**
     * How the client proves it may join without a browser. Go: {@code tailcfg.RegisterResponseAuth} (its
     * {@code Oauth2Token}, used only by Android before v1.66, is below our minimum version and not read).
     *
     * @param authKey the pre-auth key; absent when empty
     */
    public record Auth(@JsonProperty("AuthKey") @OmitEmpty String authKey) {

        public Auth {
            authKey = Copies.text(authKey);
        }
    }
}
