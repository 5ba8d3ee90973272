package io.meshcontrol.core.lock;

import java.util.List;

/**
 * The tailnet lock as the server sees it.
 *
 * @param enabled lock is on: peers check every node key against the trusted keys
 * @param head the authority's head AUM (base32), or null when lock was never initialised
 * @param keys the keys trusted at the head (empty when lock is off)
 * @param lockedOut the nodes peers do not accept (empty when lock is off)
 */
public record LockStatus(boolean enabled, String head, List<SigningKey> keys, List<LockedNode> lockedOut) {

    public static final LockStatus OFF = new LockStatus(false, null, List.of(), List.of());

    public LockStatus {
        keys = List.copyOf(keys);
        lockedOut = List.copyOf(lockedOut);
    }
}
