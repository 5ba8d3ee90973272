package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.ChallengePublicKey;

/**
 * The JSON of the ts2021 early payload, which the server may write first on a fresh Noise connection (clients from
 * capability version 49, {@link CapabilityVersion#EARLY_NOISE}). Go: {@code tailcfg.EarlyNoise}; camelCase name.
 *
 * @param nodeKeyChallenge a per-connection challenge key the client may be asked to sign with its node key; always
 *     written
 */
public record EarlyNoise(@JsonProperty("nodeKeyChallenge") ChallengePublicKey nodeKeyChallenge) {

    public EarlyNoise {
        nodeKeyChallenge = nodeKeyChallenge == null ? ChallengePublicKey.ZERO : nodeKeyChallenge;
    }
}
