package io.meshcontrol.core.testing;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.ApiKeys;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.store.PostgresSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import java.util.List;

/**
 * A network over a fresh database: a SQLite file in a test folder, or, with {@code -Dsvc.test.database=postgres}, a new
 * database in the test JVM's {@link PostgresCluster} (docs/development.md: the state tests run on both). A clock the test moves (it starts at 2026-01-01), acting as
 * the local admin. The in-process fixture of core's tests; servers in tests are started by the server's
 * {@code TestServer}, which runs the same {@link Network} behind HTTP.
 */
public final class TestNetwork {

    public final MovableClock clock = MovableClock.startingAt2026();
    public final Network network;
    public final Caller admin = Caller.localAdmin();
    /** The PostgreSQL database in use; null on SQLite. */
    private final PostgresSettings postgres;

    public TestNetwork(Path folder) {
        this(folder, NetworkOptions.defaults());
    }

    /** With other address ranges, key expiry or route fail-over ({@code prefixes.*}, {@code node.*}). */
    public TestNetwork(Path folder, NetworkOptions options) {
        if (PostgresCluster.wanted()) {
            // As the other tests that need a Debian package: skipped, saying why, where it is not installed.
            Assumptions.assumeTrue(PostgresCluster.installed(),
                    "PostgreSQL is not installed (run-tests installs it): the PostgreSQL run of this test is skipped");
        }
        this.postgres = PostgresCluster.wanted() ? PostgresCluster.shared().newDatabase() : null;
        this.network = open(folder, options);
    }

    /** The same database opened again, as a restarted server would (the clock is shared). */
    public Network reopened(Path folder) {
        return open(folder, NetworkOptions.defaults());
    }

    private Network open(Path folder, NetworkOptions options) {
        return postgres == null ? Network.open(folder.resolve("db.sqlite"), true, clock, options)
                : Network.open(postgres, clock, options, Network.SqlLog.OFF);
    }

    /** The engine the network is stored in. */
    public boolean onPostgres() {
        return postgres != null;
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
