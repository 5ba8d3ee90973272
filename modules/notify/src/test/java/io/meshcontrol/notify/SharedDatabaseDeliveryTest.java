package io.meshcontrol.notify;

import static io.meshcontrol.notify.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.core.testing.PostgresCluster;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one network on one PostgreSQL database, each with its own delivery worker, and a real receiver on
 * loopback: every delivery arrives, none is attempted by both at once (each is claimed in the database), and when the
 * holder of the lease stops mid-queue the other delivers the rest.
 */
class SharedDatabaseDeliveryTest {

    @TempDir
    Path folder;
    final WebhookReceiver receiver = new WebhookReceiver();
    final List<AutoCloseable> running = new ArrayList<>();
    MeshConfig.Database database;

    @BeforeEach
    void database() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> keys = PostgresCluster.shared().newEmptyDatabaseConfig();
        database = new MeshConfig.Database(MeshConfig.Database.Type.POSTGRES, false,
                new MeshConfig.QueryLog(true, false, Duration.ZERO), new MeshConfig.Sqlite(folder.resolve("unused"),
                true, 1000), new MeshConfig.Postgres(keys.get("database.postgres.host"),
                Integer.parseInt(keys.get("database.postgres.port")), keys.get("database.postgres.name"),
                keys.get("database.postgres.user"), Optional.empty(), MeshConfig.Postgres.Tls.DISABLE, 4));
        receiver.now(Instant.now());
    }

    @AfterEach
    void stop() throws Exception {
        receiver.close();
        for (AutoCloseable closeable : running.reversed()) {
            closeable.close();
        }
    }

    /** One instance: its network over the shared database, with its own connections and clock. */
    Network instance() {
        Network network = Network.open(database, Clock.systemUTC(), NetworkOptions.defaults());
        running.add(network::close);
        return network;
    }

    Notifications deliver(Network network, Lease lease) {
        Notifications notifications = Notifications.start(network, new Notifications.Settings(
                Tailnet.of("example.com", "https://mesh.example.com"), new EgressGuard(false, true),
                WebhookDeliveryTest::literal, WebhookDeliveryTest.NO_MAIL, Duration.ofSeconds(5),
                (SSLSocketFactory) SSLSocketFactory.getDefault(), new Properties()), Clock.systemUTC(), lease);
        running.add(notifications);
        return notifications;
    }

    Lease lease(Network network, String holder) {
        Lease lease = network.leases().hold("singleton", holder);
        running.add(lease);
        return lease;
    }

    String endpoint(Network network) {
        Webhooks.Issued hook = network.webhooks().create(Caller.localAdmin(),
                new Webhooks.Fields(receiver.url("/hook"), "", List.of("userCreated")));
        receiver.secret("/hook", hook.secret());
        return hook.endpoint().id();
    }

    /** Makes users user0..user{count-1}, alternately through each instance: each a userCreated delivery. */
    static void users(int count, Network... instances) {
        for (int i = 0; i < count; i++) {
            instances[i % instances.length].users().create(Caller.localAdmin(),
                    new Users.NewUser("user" + i, null, null, Role.MEMBER));
        }
    }

    /** The users whose userCreated reached the receiver, each as often as it came. */
    List<String> arrived() {
        return receiver.at("/hook").stream().map(r -> EventObjects.JSON.readTree(r.body()).get(0).get("data"))
                .map(data -> data.get("user").asString()).toList();
    }

    static Set<String> names(int count) {
        return IntStream.range(0, count).mapToObj(i -> "user" + i).collect(Collectors.toSet());
    }

    @Test
    void twoWorkersThatBothBelieveTheyHoldTheLeaseNeverAttemptOneDeliveryTwice() {
        // The worst case of a handover, made to last: two workers deliver at once from one outbox. Only the claims
        // in the database keep them apart.
        Network a = instance();
        Network b = instance();
        deliver(a, Lease.always("singleton", "a"));
        deliver(b, Lease.always("singleton", "b"));
        String id = endpoint(a);
        int count = 60;
        users(count, a, b);
        await("every delivery finished", () -> a.webhooks().deliveries(Caller.localAdmin(), id).size() == count);

        assertEquals(List.of(), receiver.receivedTwiceAtOnce, "no delivery attempted by both at the same time");
        List<String> arrived = arrived();
        assertEquals(names(count), Set.copyOf(arrived), "every delivery arrived");
        assertEquals(count, arrived.size(), "each once: nothing failed, so nothing was attempted again");
        assertEquals(List.of(), a.webhooks().pending(id));
    }

    @Test
    void whenTheHolderStopsMidQueueTheOtherInstanceDeliversTheRest() {
        Network a = instance();
        Lease first = lease(a, "first");
        Notifications holder = deliver(a, first);
        await("the first instance holds the lease", first::held);
        Network b = instance();
        Lease second = lease(b, "second");
        deliver(b, second);
        String id = endpoint(b);
        receiver.hold(); // requests wait for an answer: the holder's attempts stay in flight
        int count = 2 * DeliveryWorker.IN_FLIGHT + 8;
        users(count, a, b);
        // At least all it may have in flight: on a slow machine an attempt held past its timeout is made again while
        // the receiver still holds the first one, so the count can pass IN_FLIGHT before it is read.
        await("the holder's attempts are in flight", () -> receiver.receivingNow() >= DeliveryWorker.IN_FLIGHT);
        assertTrue(!second.held(), "one holder");

        // A clean stop of the holder: its attempts are cut short, its claims and then its lease given up.
        holder.close();
        receiver.release();
        await("the cut attempts are over at the receiver", () -> receiver.receivingNow() == 0);
        first.close();
        await("the other instance took the lease", second::held);
        await("the other instance delivered everything",
                () -> b.webhooks().deliveries(Caller.localAdmin(), id).size() == count);

        assertEquals(names(count), Set.copyOf(arrived()), "every delivery arrived at least once");
        assertEquals(List.of(), receiver.receivedTwiceAtOnce, "no delivery attempted by both at the same time");
        assertEquals(List.of(), b.webhooks().pending(id));
    }
}
