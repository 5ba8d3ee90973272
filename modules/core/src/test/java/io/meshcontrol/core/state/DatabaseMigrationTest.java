package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.AuditFilter;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.store.PostgresSettings;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc db migrate}: a whole network from SQLite to a real PostgreSQL and back, verified, and its refusals. */
class DatabaseMigrationTest {

    /** Tables every network of this test has rows in: what an operator would miss first if it were not copied. */
    private static final Set<String> FILLED = Set.of("tailnet", "id_sequences", "tailnet_settings", "users",
            "api_keys", "audit_log", "pre_auth_keys", "nodes", "policy", "oauth_clients", "browser_sessions",
            "dns_settings", "vip_services", "webhook_endpoints", "webhook_outbox", "apps");

    @TempDir
    Path folder;
    final MovableClock clock = MovableClock.startingAt2026();
    final Caller admin = Caller.localAdmin();

    @BeforeAll
    static void needsPostgres() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
    }

    private Network sqlite(Path file) {
        return Network.open(file, true, clock, NetworkOptions.defaults());
    }

    private Network postgres(PostgresSettings settings) {
        return Network.open(settings, clock, NetworkOptions.defaults(), Network.SqlLog.OFF);
    }

    /** A network with rows in every table of {@link #FILLED}, made through the state services as a server would. */
    private void populate(Network network) {
        network.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.ADMIN));
        User freya = network.users().create(admin, new Users.NewUser("freya", null, null, Role.MEMBER));
        network.policies().set(admin, """
                {"tagOwners": {"tag:ci": ["odin@example.com"]}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """, null);
        String key = AuthKey.forUser("odin").reusable().create(network);
        Machine.named("laptop").join(network, key);
        Machine.named("desktop").advertising("10.1.0.0/16").join(network, key);
        network.apiKeys().create(admin, "odin", List.of(), "backup", null);
        network.oauthClients().create(admin, new OAuthClients.Fields("client", List.of("auth_keys"),
                List.of("tag:ci"), "ci", null, null, null, null));
        network.browserSessions().start(freya);
        network.dns().update(admin, current -> current.withNameservers(List.of(new DnsSettings.Resolver("1.1.1.1",
                false))));
        network.vipServices().put(admin, new VipService("svc:web", null, null, "", Map.of(), List.of("tcp:443"),
                List.of()), List.of());
        network.apps().create(admin, new App(0, "github", null, List.of("github.com"), List.of(), List.of(), null,
                null));
        network.webhooks().checkTargetsWith((url, provider) -> java.util.Optional.empty());
        network.webhooks().deliverWith(event -> "{\"type\":\"" + event.type() + "\"}", () -> { });
        Webhooks.Issued hook = network.webhooks().create(admin, new Webhooks.Fields("https://hooks.example/x", "",
                List.of("nodeCreated")));
        network.webhooks().test(admin, hook.endpoint().id());
    }

    private static Map<String, DatabaseMigration.Copied> byTable(List<DatabaseMigration.Copied> copied) {
        return copied.stream().collect(Collectors.toMap(DatabaseMigration.Copied::table, Function.identity()));
    }

    @Test
    void aWholeNetworkMovesToPostgresAndBackWithEveryRowAndChecksumTheSame() {
        Path file = folder.resolve("db.sqlite");
        Network original = sqlite(file);
        populate(original);
        List<User> users = original.users().list(admin);
        var nodes = original.nodes().list(admin);
        var audit = original.auditLog().find(admin, AuditFilter.newest(1000));
        String tailnetId = original.tailnetId();
        original.close();

        PostgresSettings target = PostgresCluster.shared().newEmptyDatabase();
        List<DatabaseMigration.Copied> there = DatabaseMigration.migrate(file.toString(),
                PostgresCluster.shared().url(target.name()));
        Map<String, DatabaseMigration.Copied> tables = byTable(there);
        for (String table : FILLED) {
            assertTrue(tables.get(table).rows() > 0, table + " was copied with its rows: " + tables.get(table));
        }
        assertEquals(users.size(), tables.get("users").rows());
        assertEquals(nodes.size(), tables.get("nodes").rows());

        Network moved = postgres(target);
        assertEquals(tailnetId, moved.tailnetId());
        assertEquals(users, moved.users().list(admin));
        assertEquals(nodes, moved.nodes().list(admin));
        assertEquals(audit, moved.auditLog().find(admin, AuditFilter.newest(1000)));
        assertEquals(1, moved.webhooks().pending(moved.webhooks().list(admin).getFirst().id()).size(),
                "the outbox's delivery is still due");
        // The id sequences came along: the next user gets a new id, not one of a copied user.
        User added = moved.users().create(admin, new Users.NewUser("thor", null, null, Role.MEMBER));
        assertTrue(users.stream().allMatch(u -> u.id() < added.id()), "new id " + added.id());
        moved.users().delete(admin, added.id());
        moved.close();

        Path back = folder.resolve("back/db.sqlite");
        List<DatabaseMigration.Copied> backAgain = DatabaseMigration.migrate(
                PostgresCluster.shared().url(target.name()), back.toString());
        Map<String, DatabaseMigration.Copied> returned = byTable(backAgain);
        assertEquals(tables.keySet(), returned.keySet());
        for (String table : tables.keySet()) {
            if (!Set.of("users", "audit_log", "id_sequences").contains(table)) {
                assertEquals(tables.get(table), returned.get(table), "unchanged by the round trip: " + table);
            }
        }
        assertNotEquals(tables.get("audit_log"), returned.get("audit_log"), "thor's entries were copied back too");
        Network home = sqlite(back);
        assertEquals(users, home.users().list(admin));
        assertEquals(nodes, home.nodes().list(admin));
        assertEquals(tailnetId, home.tailnetId());
        home.close();
    }

    @Test
    void aTargetThatIsNotNewIsRefusedAndLeftAsItWas() throws IOException {
        Path file = folder.resolve("db.sqlite");
        Network network = sqlite(file);
        populate(network);
        network.close();
        PostgresSettings used = PostgresCluster.shared().newDatabase();
        postgres(used).close();
        String url = PostgresCluster.shared().url(used.name());

        IllegalArgumentException notEmpty = assertThrows(IllegalArgumentException.class,
                () -> DatabaseMigration.migrate(file.toString(), url));
        assertTrue(notEmpty.getMessage().startsWith(url + " is not empty ("), notEmpty.getMessage());
        assertTrue(notEmpty.getMessage().endsWith("): the target must be a new, empty database"),
                notEmpty.getMessage());

        Path existing = folder.resolve("existing.sqlite");
        Files.writeString(existing, "not a database");
        IllegalArgumentException exists = assertThrows(IllegalArgumentException.class,
                () -> DatabaseMigration.migrate(url, existing.toString()));
        assertEquals(existing + " already exists: the target must be a new file", exists.getMessage());
        assertEquals("not a database", Files.readString(existing));

        Path missing = folder.resolve("missing.sqlite");
        IllegalArgumentException noSource = assertThrows(IllegalArgumentException.class,
                () -> DatabaseMigration.migrate(missing.toString(), folder.resolve("new.sqlite").toString()));
        assertEquals(missing + ": no such SQLite database", noSource.getMessage());
        assertTrue(Files.notExists(folder.resolve("new.sqlite")));

        String withPassword = "postgres://svc:secret@127.0.0.1:5432/svc";
        IllegalArgumentException password = assertThrows(IllegalArgumentException.class,
                () -> DatabaseMigration.migrate(file.toString(), withPassword));
        assertTrue(password.getMessage().contains("put the password in a file"), password.getMessage());
    }
}
