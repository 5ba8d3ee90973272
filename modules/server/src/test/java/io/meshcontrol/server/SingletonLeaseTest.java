package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ServerInfo;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease of the network's singleton work as whole servers hold it: on SQLite the one process always; two servers
 * on one PostgreSQL database, one at a time, handed over when the holder stops. Which instance holds it shows in
 * {@code GET /api/v1/server} and in the {@code svc_lease_held} metric.
 */
class SingletonLeaseTest {

    @TempDir
    Path folder;

    static String instanceOf(TestServer server) {
        return server.adminClient().instance().orElseThrow();
    }

    /** The value of {@code svc_lease_held} for the server's own instance, as scraped. */
    static String heldMetric(TestServer server) throws Exception {
        String instance = instanceOf(server);
        return server.scrapeMetrics().body().lines()
                .filter(line -> line.startsWith("svc_lease_held{") && line.contains("instance=\"" + instance + "\"")
                        && line.contains("lease=\"singleton\""))
                .map(line -> line.substring(line.lastIndexOf(' ') + 1)).findFirst().orElse("none");
    }

    @Test
    void onSqliteTheServerHoldsTheSingletonLeaseFromTheStart() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            ServerInfo info = server.adminClient().server();
            String instance = instanceOf(server);
            assertEquals(instance, info.instance(), "the instance /version names");
            assertEquals(List.of(new ServerInfo.Lease(Application.SINGLETON_LEASE, instance, 1)), info.leases());
            assertTrue(server.application.singletonLease().held());
            assertTrue(heldMetric(server).startsWith("1"), heldMetric(server));
        }
    }

    @Test
    void onPostgresOneOfTwoServersHoldsTheLeaseAndAStopHandsItToTheOther() throws Exception {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> database = PostgresCluster.shared().newEmptyDatabaseConfig();
        TestServer.Builder first = TestServer.in(folder.resolve("a"));
        TestServer.Builder second = TestServer.in(folder.resolve("b"));
        database.forEach(first::set);
        database.forEach(second::set);
        try (TestServer a = first.start(); TestServer b = second.start()) {
            Await.until("one server holds the lease", () -> a.application.singletonLease().held()
                    || b.application.singletonLease().held());
            TestServer holder = a.application.singletonLease().held() ? a : b;
            TestServer other = holder == a ? b : a;
            assertFalse(other.application.singletonLease().held(), "one holder");
            String holderId = instanceOf(holder);
            for (TestServer asked : List.of(a, b)) {
                List<ServerInfo.Lease> leases = asked.adminClient().server().leases();
                assertEquals(1, leases.size());
                assertEquals(holderId, leases.getFirst().holder(), "every instance names the holder");
            }
            assertTrue(heldMetric(holder).startsWith("1"));
            assertTrue(heldMetric(other).startsWith("0"));
            long epoch = holder.application.singletonLease().epoch();

            holder.close();
            Await.until("the other server took the lease", other.application.singletonLease()::held);
            ServerInfo.Lease now = other.adminClient().server().leases().getFirst();
            assertEquals(instanceOf(other), now.holder());
            assertEquals(epoch + 1, now.epoch());
            assertTrue(heldMetric(other).startsWith("1"));
        }
    }
}
