package io.meshcontrol.notify;

import static io.meshcontrol.notify.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.WebhookDelivery;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.state.AccessRequests;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.core.testing.TestNetwork;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class WebhookDeliveryTest {

    static final MeshConfig.Smtp NO_MAIL = new MeshConfig.Smtp(Optional.empty(), 0, Optional.empty(), Optional.empty(),
            "", MeshConfig.Smtp.Encryption.STARTTLS);

    @TempDir
    Path folder;
    TestNetwork net;
    Network network;
    Notifications notifications;
    final WebhookReceiver receiver = new WebhookReceiver();
    /** Names the tests resolve; IP literals resolve to themselves, anything else is unknown. */
    final Map<String, InetAddress[]> dns = new ConcurrentHashMap<>();
    final AtomicInteger lookups = new AtomicInteger();

    @BeforeEach
    void start() {
        net = new TestNetwork(folder);
        network = net.network;
        receiver.now(net.clock.instant());
        notifications = start(network, new EgressGuard(false, true));
    }

    Notifications start(Network network, EgressGuard guard) {
        return start(network, guard, Duration.ofSeconds(2));
    }

    Notifications start(Network network, EgressGuard guard, Duration timeout) {
        return Notifications.start(network, new Notifications.Settings(Tailnet.of("example.com",
                "https://mesh.example.com"), guard, this::lookup, NO_MAIL, timeout,
                (javax.net.ssl.SSLSocketFactory) javax.net.ssl.SSLSocketFactory.getDefault(),
                new java.util.Properties()), net.clock);
    }

    InetAddress[] lookup(String host) throws UnknownHostException {
        lookups.incrementAndGet();
        InetAddress[] named = dns.get(host);
        return named != null ? named : literal(host);
    }

    /** IP literals resolve to themselves; no name resolves. */
    static InetAddress[] literal(String host) throws UnknownHostException {
        try {
            return new InetAddress[] {InetAddress.getByAddress(host, IpAddress.parse(host).bytes())};
        } catch (IllegalArgumentException e) {
            throw new UnknownHostException(host);
        }
    }

    @AfterEach
    void stop() {
        notifications.close();
        receiver.close();
    }

    Webhooks.Issued endpoint(String path, String provider, String... events) {
        Webhooks.Issued issued = network.webhooks().create(net.admin,
                new Webhooks.Fields(receiver.url(path), provider, List.of(events)));
        receiver.secret(path, issued.secret());
        return issued;
    }

    List<WebhookDelivery> history(String id) {
        return network.webhooks().deliveries(net.admin, id);
    }

    List<PendingDelivery> pending(String id) {
        return network.webhooks().pending(id);
    }

    @Test
    void aUserCreatedReachesTheReceiverAsASignedArray() {
        Webhooks.Issued hook = endpoint("/hook", "", "userCreated");
        net.user("odin", Role.MEMBER);
        await("the delivery", () -> history(hook.endpoint().id()).size() == 1);

        WebhookReceiver.Received got = receiver.at("/hook").getFirst();
        assertTrue(got.signed(), "the receiver verifies the signature");
        assertTrue(got.header("Mesh-Webhook-Signature").matches("t=[0-9]+,v1=[0-9a-f]{64}"));
        assertEquals("application/json", got.header("Content-Type"));
        JsonNode events = EventObjects.JSON.readTree(got.body());
        assertEquals(1, events.size());
        JsonNode event = events.get(0);
        assertEquals("userCreated", event.get("type").asString());
        assertEquals(1, event.get("version").asInt());
        assertEquals("example.com", event.get("tailnet").asString());
        assertEquals("2026-01-01T00:00:00Z", event.get("timestamp").asString());
        assertEquals("odin", event.get("data").get("user").asString());
        assertTrue(event.get("data").has("userID"));
        assertEquals("https://mesh.example.com/admin/users", event.get("data").get("url").asString());
        assertTrue(event.get("message").asString().contains("odin"));
        WebhookDelivery delivery = history(hook.endpoint().id()).getFirst();
        assertEquals(200, delivery.status());
        assertEquals(1, delivery.attempts());
        assertNull(delivery.error());
        assertEquals(List.of("userCreated"), delivery.eventTypes());
    }

    @Test
    void accessRequestEventsCarryTheUserAndTheRequest() {
        Webhooks.Issued hook = endpoint("/requests", "", "accessRequestCreated", "accessRequestApproved");
        net.user("ops", Role.NETWORK_ADMIN);
        net.user("odin", Role.MEMBER);
        net.policy("""
                {"groups": {"group:oncall": ["ops@"]},
                 "acls": [{"action": "accept", "src": ["group:oncall"], "dst": ["*:*"]}]}
                """);
        var request = network.accessRequests().create(net.callerFor("odin", null),
                new AccessRequests.NewRequest(null, "group:oncall", "incident 42", "2h"));
        network.accessRequests().approve(net.callerFor("ops", null), request.id());
        await("both deliveries", () -> receiver.at("/requests").stream()
                .mapToInt(r -> EventObjects.JSON.readTree(r.body()).size()).sum() == 2);

        List<JsonNode> events = receiver.at("/requests").stream()
                .flatMap(r -> EventObjects.JSON.readTree(r.body()).valueStream()).toList();
        JsonNode approved = events.stream().filter(e -> e.get("type").asString().equals("accessRequestApproved"))
                .findFirst().orElseThrow();
        JsonNode data = approved.get("data");
        assertEquals("odin", data.get("user").asString());
        assertEquals(Long.toString(request.id()), data.get("requestID").asString());
        assertEquals("group:oncall", data.get("group").asString());
        assertEquals("incident 42", data.get("reason").asString());
        assertEquals("2h", data.get("duration").asString());
        assertEquals("approved", data.get("state").asString());
        assertEquals("2026-01-01T02:00:00Z", data.get("expiration").asString());
        assertEquals("User odin was granted group:oncall", approved.get("message").asString());
    }

    @Test
    void anEndpointHearsOnlyWhatItSubscribedTo() {
        Webhooks.Issued users = endpoint("/users", "", "userDeleted");
        var odin = net.user("odin", Role.MEMBER);
        network.users().delete(net.admin, odin.id());
        await("the delivery", () -> history(users.endpoint().id()).size() == 1);
        assertEquals(List.of("userDeleted"), history(users.endpoint().id()).getFirst().eventTypes());
        assertEquals(1, receiver.at("/users").size());
    }

    @Test
    void aTestEventNeedsNoSubscriptionAndGoesToItsEndpointAlone() {
        Webhooks.Issued asked = endpoint("/asked", "");
        Webhooks.Issued other = endpoint("/other", "", "userCreated");
        network.webhooks().test(net.admin, asked.endpoint().id());
        await("the test delivery", () -> history(asked.endpoint().id()).size() == 1);
        JsonNode event = EventObjects.JSON.readTree(receiver.at("/asked").getFirst().body()).get(0);
        assertEquals("test", event.get("type").asString());
        assertTrue(receiver.at("/asked").getFirst().signed());
        assertTrue(history(other.endpoint().id()).isEmpty());
        assertTrue(receiver.at("/other").isEmpty());
    }

    @Test
    void aRotatedSecretSignsFromThenOn() {
        Webhooks.Issued hook = endpoint("/hook", "");
        Webhooks.Issued rotated = network.webhooks().rotate(net.admin, hook.endpoint().id());
        assertTrue(!rotated.secret().equals(hook.secret()));
        receiver.secret("/hook", rotated.secret());
        network.webhooks().test(net.admin, hook.endpoint().id());
        await("the test delivery", () -> history(hook.endpoint().id()).size() == 1);
        assertTrue(receiver.at("/hook").getFirst().signed());
    }

    @Test
    void retriesFollowTheScheduleOnTheInjectedClock() {
        Webhooks.Issued hook = endpoint("/flaky", "");
        String id = hook.endpoint().id();
        receiver.answer("/flaky", 500, 429, 503, 502);
        var start = net.clock.instant();
        network.webhooks().test(net.admin, id);
        List<Duration> waits = List.of(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30));
        var due = start;
        for (int attempt = 1; attempt <= 3; attempt++) {
            int made = attempt;
            await("attempt " + made + " to be recorded", () -> !pending(id).isEmpty()
                    && pending(id).getFirst().attempts() == made);
            due = due.plus(waits.get(attempt - 1));
            assertEquals(due, pending(id).getFirst().nextAttemptAt(), "retry " + attempt + " is due after "
                    + waits.get(attempt - 1));
            // The clock has not moved, so nothing more can have been sent.
            assertEquals(attempt, receiver.at("/flaky").size());
            net.clock.advance(waits.get(attempt - 1));
            notifications.wake();
        }
        await("the final attempt", () -> history(id).size() == 1);
        WebhookDelivery delivery = history(id).getFirst();
        assertEquals(4, delivery.attempts(), "one attempt and three retries");
        assertEquals(502, delivery.status());
        assertEquals("HTTP 502", delivery.error());
        assertEquals(4, receiver.at("/flaky").size());
        assertTrue(pending(id).isEmpty());
    }

    @Test
    void aRetrySucceedsWhenTheReceiverRecovers() {
        String id = endpoint("/recovers", "").endpoint().id();
        receiver.answer("/recovers", 503);
        network.webhooks().test(net.admin, id);
        await("the first attempt", () -> !pending(id).isEmpty() && pending(id).getFirst().attempts() == 1);
        net.clock.advance(Duration.ofSeconds(2));
        notifications.wake();
        await("the retry", () -> history(id).size() == 1);
        assertEquals(200, history(id).getFirst().status());
        assertEquals(2, history(id).getFirst().attempts());
        assertTrue(receiver.at("/recovers").stream().allMatch(WebhookReceiver.Received::signed));
    }

    @Test
    void aClientErrorIsFinal() {
        String id = endpoint("/gone", "").endpoint().id();
        receiver.answer("/gone", 410);
        network.webhooks().test(net.admin, id);
        await("the delivery", () -> history(id).size() == 1);
        assertEquals(1, history(id).getFirst().attempts());
        assertEquals(410, history(id).getFirst().status());
        assertTrue(pending(id).isEmpty());
    }

    @Test
    void aRedirectIsFinalAndNeverFollowed() {
        String id = endpoint("/moved", "").endpoint().id();
        receiver.answer("/moved", 307);
        network.webhooks().test(net.admin, id);
        await("the delivery", () -> history(id).size() == 1);
        WebhookDelivery delivery = history(id).getFirst();
        assertEquals(307, delivery.status());
        assertEquals(1, delivery.attempts());
        assertTrue(delivery.error().contains("redirect"));
        assertTrue(receiver.at("/redirected").isEmpty(), "the Location was not visited");
    }

    @Test
    void noAnswerWithinTheTimeoutIsRetried() {
        String id = endpoint("/slow", "").endpoint().id();
        receiver.hold(); // answers nothing until released; the test settings wait 2 s
        network.webhooks().test(net.admin, id);
        await("the timed-out attempt", () -> !pending(id).isEmpty() && pending(id).getFirst().attempts() == 1);
        receiver.release();
        assertEquals(net.clock.instant().plusSeconds(2), pending(id).getFirst().nextAttemptAt());
    }

    @Test
    void atMostSixteenDeliveriesAreInFlight() {
        notifications.close();
        notifications = start(network, new EgressGuard(false, true), Duration.ofSeconds(60)); // held, not timed out
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(endpoint("/busy" + i, "", "userCreated").endpoint().id());
        }
        receiver.hold();
        net.user("odin", Role.MEMBER);
        await("sixteen held requests", () -> receiver.received.size() == DeliveryWorker.IN_FLIGHT);
        long waiting = ids.stream().filter(id -> pending(id).getFirst().attempts() == 0).count();
        assertEquals(20, ids.stream().filter(id -> pending(id).size() == 1).count(), "each endpoint has its row");
        assertTrue(waiting >= 4, "the four beyond the cap wait in the outbox");
        receiver.release();
        await("all twenty", () -> ids.stream().allMatch(id -> history(id).size() == 1));
        assertEquals(20, receiver.received.size());
        assertEquals(DeliveryWorker.IN_FLIGHT, receiver.maxConcurrent.get());
    }

    @Test
    void anEndpointKeepsItsLastHundredDeliveries() {
        String id = endpoint("/many", "").endpoint().id();
        for (int i = 0; i < 105; i++) {
            network.webhooks().test(net.admin, id);
        }
        await("105 deliveries", () -> receiver.at("/many").size() == 105 && pending(id).isEmpty());
        List<WebhookDelivery> kept = history(id);
        assertEquals(100, kept.size());
        assertTrue(kept.getFirst().id() > kept.getLast().id(), "newest first");
    }

    @Test
    void aPendingDeliverySurvivesARestart() {
        String id = endpoint("/later", "").endpoint().id();
        receiver.answer("/later", 503);
        network.webhooks().test(net.admin, id);
        await("the first attempt", () -> !pending(id).isEmpty() && pending(id).getFirst().attempts() == 1);
        notifications.close();
        Network reopened = net.reopened(folder);
        notifications = start(reopened, new EgressGuard(false, true));
        assertEquals(1, reopened.webhooks().pending(id).size(), "still pending after the restart");
        net.clock.advance(Duration.ofSeconds(2));
        notifications.wake();
        await("the delivery after the restart", () -> reopened.webhooks().deliveries(net.admin, id).size() == 1);
        assertEquals(2, reopened.webhooks().deliveries(net.admin, id).getFirst().attempts());
        assertEquals(2, receiver.at("/later").size());
    }

    @Test
    void loopbackLinkLocalAndUnspecifiedUrlsAreRefusedWhenStored() {
        notifications.close();
        notifications = start(network, EgressGuard.DEFAULT);
        for (String url : List.of("http://127.0.0.1:8080/h", "http://[::1]/h", "http://169.254.169.254/latest",
                "http://0.0.0.0/h", "http://[fe80::1]/h")) {
            MeshException refused = assertThrows(MeshException.class, () -> network.webhooks().create(net.admin,
                    new Webhooks.Fields(url, "", List.of())));
            assertEquals(MeshException.Reason.INVALID, refused.reason());
            assertTrue(refused.getMessage().matches(".*(loopback|link-local|unspecified).*"), refused.getMessage());
        }
        network.webhooks().create(net.admin, new Webhooks.Fields("http://10.1.2.3/h", "", List.of()));
        notifications.close();
        notifications = start(network, new EgressGuard(true, false));
        MeshException refused = assertThrows(MeshException.class, () -> network.webhooks().create(net.admin,
                new Webhooks.Fields("http://10.1.2.3/h", "", List.of())));
        assertTrue(refused.getMessage().contains("private"), refused.getMessage());
    }

    /**
     * Issue 33: the C library's resolver reads 0177.0.0.1 as 127.0.0.1 (octal), so the host must be refused as
     * written, whatever the lookup makes of it; here the lookup answers as the C library does.
     */
    @Test
    void ipv4LiteralsInOtherFormsThanDottedDecimalAreRefusedWhenStored() throws Exception {
        notifications.close();
        notifications = start(network, new EgressGuard(false, false));
        for (String host : List.of("0177.0.0.1", "0x7f.0.0.1", "127.1", "2130706433")) {
            dns.put(host, new InetAddress[] {InetAddress.getByAddress(host, new byte[] {(byte) 203, 0, 113, 7})});
            MeshException refused = assertThrows(MeshException.class, () -> network.webhooks().create(net.admin,
                    new Webhooks.Fields("http://" + host + "/h", "", List.of())));
            assertEquals(MeshException.Reason.INVALID, refused.reason());
            assertEquals("webhook URL http://" + host + "/h is refused: its host " + host + " is an IPv4 address in "
                    + "a form other than four decimal numbers (octal, hexadecimal, short or integer forms are not "
                    + "used); write it as a.b.c.d", refused.getMessage());
        }
    }

    @Test
    void theLoopbackRefusalNamesTheSettingThatAllowsIt() {
        notifications.close();
        notifications = start(network, EgressGuard.DEFAULT);
        MeshException refused = assertThrows(MeshException.class, () -> network.webhooks().create(net.admin,
                new Webhooks.Fields("http://127.0.0.1:8080/h", "", List.of())));
        assertTrue(refused.getMessage().endsWith("egress.allow_loopback_targets is off)"), refused.getMessage());
    }

    @Test
    void aNameThatRebindsToARefusedAddressIsNotDialled() {
        dns.put("hooks.example", new InetAddress[] {InetAddress.getLoopbackAddress()});
        Webhooks.Issued hook = network.webhooks().create(net.admin, new Webhooks.Fields(
                "http://hooks.example:" + receiver.port() + "/rebind", "", List.of()));
        dns.put("hooks.example", new InetAddress[] {address("169.254.169.254")});
        network.webhooks().test(net.admin, hook.endpoint().id());
        await("the refused delivery", () -> history(hook.endpoint().id()).size() == 1);
        WebhookDelivery delivery = history(hook.endpoint().id()).getFirst();
        assertTrue(delivery.error().contains("link-local"), delivery.error());
        assertEquals(1, delivery.attempts(), "a refused address is final");
        assertTrue(receiver.received.isEmpty());
    }

    @Test
    void theCheckedAddressIsTheOneDialled() {
        dns.put("hooks.example", new InetAddress[] {InetAddress.getLoopbackAddress()});
        Webhooks.Issued hook = network.webhooks().create(net.admin, new Webhooks.Fields(
                "http://hooks.example:" + receiver.port() + "/named", "", List.of()));
        receiver.secret("/named", hook.secret());
        int before = lookups.get();
        network.webhooks().test(net.admin, hook.endpoint().id());
        await("the delivery", () -> history(hook.endpoint().id()).size() == 1);
        assertEquals(1, lookups.get() - before, "one lookup per attempt: the connection uses its answer");
        WebhookReceiver.Received got = receiver.at("/named").getFirst();
        assertEquals("hooks.example:" + receiver.port(), got.header("Host"));
        assertTrue(got.signed());
    }

    @Test
    void aDeletedEndpointsPendingDeliveriesAreDropped() {
        String id = endpoint("/bye", "").endpoint().id();
        receiver.answer("/bye", 500);
        network.webhooks().test(net.admin, id);
        await("the first attempt", () -> !pending(id).isEmpty() && pending(id).getFirst().attempts() == 1);
        network.webhooks().delete(net.admin, id);
        assertTrue(pending(id).isEmpty());
        assertThrows(MeshException.class, () -> history(id));
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByAddress(IpAddress.parse(literal).bytes());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
