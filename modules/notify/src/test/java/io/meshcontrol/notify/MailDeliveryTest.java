package io.meshcontrol.notify;

import static io.meshcontrol.notify.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.WebhookDelivery;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.core.testing.TestNetwork;
import jakarta.mail.Address;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * E-mail endpoints against real SMTP servers, in the setups the spec's e-mail rules are about: GreenMail, and Exim
 * ({@link EximServer}) where a server must offer only CRAM-MD5 or refuse a sender, a recipient or a message.
 */
class MailDeliveryTest {

    @TempDir
    Path folder;
    TestNetwork net;
    Notifications notifications;
    GreenMail mail;

    @AfterEach
    void stop() {
        if (notifications != null) {
            notifications.close();
        }
        if (mail != null) {
            mail.stop();
        }
    }

    private void start(ServerSetup setup, MeshConfig.Smtp.Encryption encryption, int port) {
        mail = new GreenMail(setup.dynamicPort());
        mail.setUser("mesh@example.com", "mesh", "secret");
        mail.start();
        net = new TestNetwork(folder);
        Properties trustTestServer = new Properties();
        trustTestServer.put("mail.smtps.ssl.trust", "*"); // GreenMail's own self-signed certificate
        trustTestServer.put("mail.smtps.ssl.checkserveridentity", "false");
        MeshConfig.Smtp smtp = new MeshConfig.Smtp(Optional.of("127.0.0.1"), port == 0 ? portOf(encryption) : port,
                Optional.of("mesh"), Optional.of("secret"), "mesh@example.com", encryption);
        notifications = Notifications.start(net.network, new Notifications.Settings(Tailnet.of("example.com",
                "https://mesh.example.com"), new EgressGuard(false, true), WebhookDeliveryTest::literal, smtp,
                Duration.ofSeconds(5), (SSLSocketFactory) SSLSocketFactory.getDefault(), trustTestServer), net.clock);
    }

    private int portOf(MeshConfig.Smtp.Encryption encryption) {
        return encryption == MeshConfig.Smtp.Encryption.TLS ? mail.getSmtps().getPort() : mail.getSmtp().getPort();
    }

    private String endpoint(String recipients) {
        return net.network.webhooks().create(net.admin, new Webhooks.Fields("mailto:" + recipients, "email",
                List.of("userCreated"))).endpoint().id();
    }

    private List<WebhookDelivery> history(String id) {
        return net.network.webhooks().deliveries(net.admin, id);
    }

    @Test
    void plainOverTlsMailsEachRecipientOnceWithApproversResolvedAtSendTime() throws Exception {
        start(ServerSetup.SMTPS, MeshConfig.Smtp.Encryption.TLS, 0);
        String id = endpoint("ops@example.com,approvers,OPS@example.com,approvers");
        // Approvers are who they are when the mail goes: these come after the endpoint was made.
        net.network.users().create(net.admin, new Users.NewUser("boss", null, "boss@example.com", Role.ADMIN));
        net.network.users().create(net.admin, new Users.NewUser("netadmin", null, null, Role.NETWORK_ADMIN));
        net.network.webhooks().update(net.admin, id, List.of("userCreated"));
        net.network.users().create(net.admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        await("three sent deliveries", () -> history(id).size() == 3);
        assertTrue(history(id).stream().allMatch(d -> d.status() == MailCourier.SENT && d.error() == null),
                history(id).toString());
        MimeMessage odin = Arrays.stream(mail.getReceivedMessages()).filter(m -> subject(m).contains("odin"))
                .findFirst().orElseThrow();
        assertEquals("example.com: User odin@example.com created", odin.getSubject());
        List<String> to = Arrays.stream(odin.getAllRecipients()).map(Address::toString).toList();
        assertEquals(List.of("ops@example.com", "boss@example.com"), to, "each once; the bad approver skipped");
        String body = odin.getContent().toString();
        assertTrue(body.contains("Type: userCreated") && body.contains("\"user\" : \"odin@example.com\""), body);
    }

    @Test
    void withoutTlsThePasswordGoesOnlyByCramMd5() throws Exception {
        mail = null;
        GreenMail server = new GreenMail(ServerSetup.SMTP.dynamicPort());
        server.start();
        mail = server;
        try (SmtpAuthProxy cramOnly = new SmtpAuthProxy(server.getSmtp().getPort(), "CRAM-MD5");
             SmtpAuthProxy asIs = new SmtpAuthProxy(server.getSmtp().getPort(), "PLAIN LOGIN")) {
            start(cramOnly, asIs);
        }
    }

    private void start(SmtpAuthProxy cramOnly, SmtpAuthProxy asIs) {
        // Not through start(...): this test's server is already running; only the client side is made here.
        net = new TestNetwork(folder);
        Notifications none = notificationsTo(cramOnly.port(), MeshConfig.Smtp.Encryption.NONE);
        notifications = none;
        String id = endpoint("ops@example.com");
        net.network.webhooks().test(net.admin, id);
        await("the CRAM-MD5 attempt", () -> cramOnly.commands.stream().anyMatch(c -> c.startsWith("AUTH ")));
        assertTrue(cramOnly.commands.contains("AUTH CRAM-MD5"), cramOnly.commands.toString());
        none.close();

        TestNetwork second = new TestNetwork(folder.resolve("second"));
        net = second;
        notifications = notificationsTo(asIs.port(), MeshConfig.Smtp.Encryption.NONE);
        String other = endpoint("ops@example.com");
        net.network.webhooks().test(net.admin, other);
        await("the refused attempt", () -> !net.network.webhooks().pending(other).isEmpty()
                && net.network.webhooks().pending(other).getFirst().attempts() == 1);
        assertTrue(asIs.commands.stream().noneMatch(c -> c.startsWith("AUTH")), "PLAIN is never sent in clear");
        assertEquals(0, mail.getReceivedMessages().length, "nothing is sent meanwhile");
    }

    @Test
    void aServerOfferingOnlyLoginIsRefusedWithAClearErrorAndRetried() throws Exception {
        GreenMail server = new GreenMail(ServerSetup.SMTP.dynamicPort());
        server.start();
        mail = server;
        try (SmtpAuthProxy loginOnly = new SmtpAuthProxy(server.getSmtp().getPort(), "LOGIN")) {
            net = new TestNetwork(folder);
            // starttls would hide the EHLO answer from the proxy; the rule is the same over TLS.
            notifications = notificationsTo(loginOnly.port(), MeshConfig.Smtp.Encryption.NONE);
            String id = endpoint("ops@example.com");
            net.network.webhooks().test(net.admin, id);
            await("the refused attempt", () -> !net.network.webhooks().pending(id).isEmpty()
                    && net.network.webhooks().pending(id).getFirst().attempts() == 1);
            assertTrue(loginOnly.commands.stream().noneMatch(c -> c.startsWith("AUTH")), loginOnly.commands.toString());
            assertEquals(net.clock.instant().plusSeconds(2), net.network.webhooks().pending(id).getFirst()
                    .nextAttemptAt(), "an authentication failure is retried");
        }
    }

    @Test
    void cramMd5SignsInAtARealServerThatOffersNothingElse() throws Exception {
        assumeTrue(EximServer.available(), "needs Exim (scripts/install-test-packages.sh) and root");
        try (EximServer exim = EximServer.start()) {
            net = new TestNetwork(folder);
            notifications = notificationsTo(exim.port(), MeshConfig.Smtp.Encryption.NONE);
            String id = endpoint("ops@example.com");
            net.network.webhooks().test(net.admin, id);
            await("the delivery", () -> history(id).size() == 1);
            WebhookDelivery delivery = history(id).getFirst();
            assertNull(delivery.error(), delivery.toString());
            assertEquals(MailCourier.SENT, delivery.status());
            assertTrue(exim.mailbox().contains("Subject: example.com: This is a test event"), exim.mailbox());
        }
    }

    @Test
    void aRecipientOrAMessageTheServerRefusesIsFinal() throws Exception {
        assumeTrue(EximServer.available(), "needs Exim (scripts/install-test-packages.sh) and root");
        try (EximServer exim = EximServer.start()) {
            net = new TestNetwork(folder);
            notifications = notificationsTo(exim.port(), MeshConfig.Smtp.Encryption.NONE);
            String recipient = endpoint("refused@example.com");
            net.network.webhooks().test(net.admin, recipient);
            await("the refused recipient", () -> history(recipient).size() == 1);
            assertFinalRefusal(recipient);

            String message = endpoint("ops@example.com");
            net.user("refuse-this", Role.MEMBER); // the server refuses a body that names this user
            await("the refused message", () -> history(message).size() == 1);
            assertFinalRefusal(message);
            assertEquals("", exim.mailbox(), "nothing was delivered");
        }
    }

    @Test
    void aSenderTheServerRefusesIsFinal() throws Exception {
        assumeTrue(EximServer.available(), "needs Exim (scripts/install-test-packages.sh) and root");
        try (EximServer exim = EximServer.start()) {
            net = new TestNetwork(folder);
            notifications = notificationsTo(exim.port(), MeshConfig.Smtp.Encryption.NONE, EximServer.REFUSED_SENDER);
            String id = endpoint("ops@example.com");
            net.network.webhooks().test(net.admin, id);
            await("the refused sender", () -> history(id).size() == 1);
            assertFinalRefusal(id);
        }
    }

    /** Finished after one attempt, with the server's refusal: no retry is pending. */
    private void assertFinalRefusal(String id) {
        WebhookDelivery delivery = history(id).getFirst();
        assertEquals(1, delivery.attempts(), delivery.toString());
        assertTrue(delivery.error() != null && delivery.error().startsWith("the mail server refused"),
                delivery.toString());
        assertTrue(delivery.error().contains("550"), delivery.toString());
        assertTrue(net.network.webhooks().pending(id).isEmpty(), "no retry is pending");
    }

    @Test
    void aListThatResolvesToNobodyFailsWithoutRetry() {
        start(ServerSetup.SMTP, MeshConfig.Smtp.Encryption.NONE, 0);
        String id = endpoint("approvers");
        net.network.users().create(net.admin, new Users.NewUser("boss", null, null, Role.ADMIN));
        await("the failed delivery", () -> history(id).size() == 1);
        assertEquals(1, history(id).getFirst().attempts());
        assertEquals("the recipient list resolves to nobody", history(id).getFirst().error());
    }

    private Notifications notificationsTo(int port, MeshConfig.Smtp.Encryption encryption) {
        return notificationsTo(port, encryption, "mesh@example.com");
    }

    private Notifications notificationsTo(int port, MeshConfig.Smtp.Encryption encryption, String from) {
        MeshConfig.Smtp smtp = new MeshConfig.Smtp(Optional.of("127.0.0.1"), port, Optional.of("mesh"),
                Optional.of("secret"), from, encryption);
        return Notifications.start(net.network, new Notifications.Settings(Tailnet.of("example.com",
                "https://mesh.example.com"), new EgressGuard(false, true), WebhookDeliveryTest::literal, smtp,
                Duration.ofSeconds(5), (SSLSocketFactory) SSLSocketFactory.getDefault(), new Properties()), net.clock);
    }

    private static String subject(MimeMessage message) {
        try {
            return message.getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }
}
