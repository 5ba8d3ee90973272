package io.meshcontrol.core.lock;

/**
 * What every map tells clients about the tailnet lock (the protocol's TKAInfo): the authority's head while lock is on,
 * or that it was disabled. Clients whose head differs sync; a client that still holds a lock disables it.
 *
 * @param head base32 head hash; null once disabled
 */
public record LockMapInfo(String head, boolean disabled) {

    public static LockMapInfo on(AumHash head) {
        return new LockMapInfo(head.text(), false);
    }

    public static final LockMapInfo DISABLED = new LockMapInfo(null, true);
}
