package io.meshcontrol.core.state;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** A network over a fresh database in a test folder, with a clock the test can move. */
final class TestNetwork {

    final MovableClock clock = new MovableClock(Instant.parse("2026-01-01T00:00:00Z"));
    final Network network;
    final Caller admin = Caller.localAdmin();

    TestNetwork(Path folder) {
        this.network = new Network(Database.open(folder.resolve("db.sqlite"), true), clock);
    }

    User user(String name, Role role) {
        return network.users().create(admin, new Users.NewUser(name, null, null, role));
    }

    void policy(String text) {
        network.policies().set(admin, text, null);
    }

    /** The caller a freshly made key stands for. */
    Caller callerFor(String user, List<String> scopes) {
        ApiKeys.Issued issued = network.apiKeys().create(admin, user, scopes, "test", null);
        return network.apiKeys().authenticate(issued.secret()).orElseThrow();
    }

    static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
