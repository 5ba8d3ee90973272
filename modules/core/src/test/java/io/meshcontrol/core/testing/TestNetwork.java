package io.meshcontrol.core.testing;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.ApiKeys;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.Users;
import java.nio.file.Path;
import java.util.List;

/**
 * A network over a fresh database in a test folder, with a clock the test moves (it starts at 2026-01-01), acting as
 * the local admin. The in-process fixture of core's tests; servers in tests are started by the server's
 * {@code TestServer}, which runs the same {@link Network} behind HTTP.
 */
public final class TestNetwork {

    public final MovableClock clock = MovableClock.startingAt2026();
    public final Network network;
    public final Caller admin = Caller.localAdmin();

    public TestNetwork(Path folder) {
        this(folder, NetworkOptions.defaults());
    }

    /** With other address ranges, key expiry or route fail-over ({@code prefixes.*}, {@code node.*}). */
    public TestNetwork(Path folder, NetworkOptions options) {
        this.network = Network.open(folder.resolve("db.sqlite"), true, clock, options);
    }

    /** The same database opened again, as a restarted server would (the clock is shared). */
    public Network reopened(Path folder) {
        return Network.open(folder.resolve("db.sqlite"), true, clock, NetworkOptions.defaults());
    }

    public User user(String name, Role role) {
        return network.users().create(admin, new Users.NewUser(name, null, null, role));
    }

    public void policy(String text) {
        network.policies().set(admin, text, null);
    }

    /** Makes {@code key} as the admin and returns its secret. */
    public String authKey(AuthKey key) {
        return key.create(network);
    }

    /** Registers {@code machine} with {@code authKey}. */
    public Node join(Machine machine, String authKey) {
        return machine.join(network, authKey);
    }

    /** The caller a freshly made key stands for. */
    public Caller callerFor(String user, List<String> scopes) {
        ApiKeys.Issued issued = network.apiKeys().create(admin, user, scopes, "test", null);
        return network.apiKeys().authenticate(issued.secret()).orElseThrow();
    }
}
