package io.meshcontrol.core.lock;

/**
 * A node that peers under the tailnet lock do not accept: it has no signature, or one that trusted keys no longer
 * authorise. A signing node admits it with {@link #signCommand}.
 *
 * @param reason why ("no signature", or what the check of its signature said)
 */
public record LockedNode(long id, String name, String nodeKey, String reason) {

    /** What to run on a machine holding a trusted key. */
    public String signCommand() {
        return "tailscale lock sign " + nodeKey;
    }
}
