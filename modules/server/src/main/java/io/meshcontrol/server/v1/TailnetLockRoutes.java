package io.meshcontrol.server.v1;

import io.meshcontrol.api.TailnetLockView;
import io.meshcontrol.core.lock.LockStatus;
import io.meshcontrol.core.state.TailnetLock;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/**
 * {@code GET /api/v1/tailnet-lock}: the tailnet lock's standing, read-only. The server cannot change it (it holds no
 * signing key): machines do, with {@code tailscale lock ...}.
 */
public final class TailnetLockRoutes {

    private final TailnetLock lock;

    public TailnetLockRoutes(TailnetLock lock) {
        this.lock = lock;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/tailnet-lock", request -> Reply.ok(view(lock.status(request.caller()))));
    }

    static TailnetLockView view(LockStatus status) {
        return new TailnetLockView(status.enabled(), status.head(),
                status.keys().stream().map(k -> new TailnetLockView.TrustedKey(k.text(), k.votes())).toList(),
                status.lockedOut().stream().map(n -> new TailnetLockView.LockedOut(n.id(), n.name(), n.nodeKey(),
                        n.reason(), n.signCommand())).toList());
    }
}
