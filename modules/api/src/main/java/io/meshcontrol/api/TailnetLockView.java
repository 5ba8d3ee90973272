package io.meshcontrol.api;

import java.util.List;

/**
 * The tailnet lock as the server sees it: {@code GET /api/v1/tailnet-lock} (read-only; machines change it with
 * {@code tailscale lock ...}).
 *
 * @param enabled lock is on: peers accept only node keys that trusted keys signed
 * @param head the authority's head AUM (base32), or null when lock was never initialised
 * @param trustedKeys the trusted signing keys (empty while lock is off)
 * @param lockedOut the machines peers do not accept, each with the command that signs it (empty while lock is off)
 */
public record TailnetLockView(boolean enabled, String head, List<TrustedKey> trustedKeys, List<LockedOut> lockedOut) {

    /** A trusted signing key ({@code tlpub:<hex>}) and its votes. */
    public record TrustedKey(String key, long votes) {
    }

    /**
     * A machine that is locked out.
     *
     * @param reason "no signature", or why its signature does not hold
     * @param signCommand what to run on a machine with a trusted key to admit it
     */
    public record LockedOut(long id, String name, String nodeKey, String reason, String signCommand) {
    }
}
