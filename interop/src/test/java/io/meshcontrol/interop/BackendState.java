package io.meshcontrol.interop;

/**
 * {@code ipn.State} as {@code tailscale status --json} prints it in BackendState. The constants are spelled
 * exactly as on the wire so tests read like the client's own output.
 */
public enum BackendState {
    /** The daemon has not decided yet (briefly, at start). */
    NoState,
    /** No usable node key: a fresh state dir, after logout, or an expired key. Also what a fresh daemon says. */
    NeedsLogin,
    /** Logged in, waiting for an admin to approve the device. */
    NeedsMachineAuth,
    /** Logged in, but the user ran {@code tailscale down}. */
    Stopped,
    /** Logged in and connecting (no netmap with this node yet). */
    Starting,
    /** Connected. */
    Running;

    static BackendState parse(String wire) {
        for (BackendState state : values()) {
            if (state.name().equals(wire)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown BackendState '" + wire + "' (a newer client? extend BackendState)");
    }
}
