package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.MachinePublicKey;

/**
 * The answer to {@code GET /key?v=<capver>} (plain HTTP, before any Noise): the control server's machine key. Go:
 * {@code tailcfg.OverTLSPublicKeyResponse}; its JSON names are camelCase.
 *
 * @param legacyPublicKey the key of the retired NaCl-box protocol; always written, the zero key when (as here) that
 *     protocol is not offered
 * @param publicKey the server's Noise static key that clients dial ts2021 with; always written
 */
public record OverTLSPublicKeyResponse(
        @JsonProperty("legacyPublicKey") MachinePublicKey legacyPublicKey,
        @JsonProperty("publicKey") MachinePublicKey publicKey) {

    public OverTLSPublicKeyResponse {
        legacyPublicKey = legacyPublicKey == null ? MachinePublicKey.ZERO : legacyPublicKey;
        publicKey = publicKey == null ? MachinePublicKey.ZERO : publicKey;
    }

    /** The answer of a server that speaks only ts2021 (Noise): the legacy key is zero. */
    public static OverTLSPublicKeyResponse noiseOnly(MachinePublicKey publicKey) {
        return new OverTLSPublicKeyResponse(MachinePublicKey.ZERO, publicKey);
    }
}
