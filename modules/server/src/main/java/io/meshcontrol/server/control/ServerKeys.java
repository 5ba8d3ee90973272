package io.meshcontrol.server.control;

/**
 * The answer to {@code GET /key?v=<capver>} ({@code tailcfg.OverTLSPublicKeyResponse}): the keys a client needs before
 * it can open a ts2021 connection. The JSON names are lower camel case, as Tailscale's struct tags say.
 *
 * @param legacyPublicKey the key of the pre-Noise NaCl protocol, which this server does not speak: always the zero key
 *                        ({@code mkey:} and 64 zeros), as headscale sends; clients since 2024 ignore it
 * @param publicKey       the server's Noise key ({@code mkey:<hex>}), which the client pins for the handshake
 */
public record ServerKeys(String legacyPublicKey, String publicKey) {
}
