package io.meshcontrol.notify;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Network;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.SSLSocketFactory;

/**
 * Webhooks, chat providers and e-mail for one network: the check of every endpoint URL stored, how events are rendered
 * into the outbox by the changes that raise them, and the delivery worker that empties it. Built once by the
 * composition root; closing it stops delivering (pending deliveries, and those of changes made after, stay in the
 * outbox for the next start).
 */
public final class Notifications implements AutoCloseable {

    /**
     * What delivery needs besides the network.
     *
     * @param tailnet the network's name and URLs as events show them
     * @param egress  {@code egress.*}: where deliveries may go
     * @param lookup  how endpoint host names are resolved (tests resolve none)
     * @param smtp    {@code notifications.smtp}: e-mail is off while its host is unset
     * @param timeout the wait for an answer (the spec's 15 s; tests shorten it)
     * @param tls     the sockets of https deliveries (tests trust their own receiver's certificate)
     * @param mailProperties further Jakarta Mail properties (tests trust their mail server's certificate)
     */
    public record Settings(Tailnet tailnet, EgressGuard egress, AddressLookup lookup, MeshConfig.Smtp smtp,
                           Duration timeout, SSLSocketFactory tls, Properties mailProperties) {

        public Settings(Tailnet tailnet, EgressGuard egress, AddressLookup lookup, MeshConfig.Smtp smtp) {
            this(tailnet, egress, lookup, smtp, GuardedPost.TIMEOUT, (SSLSocketFactory) SSLSocketFactory.getDefault(),
                    new Properties());
        }
    }

    private final Network network;
    private final ScheduledExecutorService timer;
    private final DeliveryWorker worker;

    private Notifications(Network network, ScheduledExecutorService timer, DeliveryWorker worker) {
        this.network = network;
        this.timer = timer;
        this.worker = worker;
    }

    /** Delivery that is always this process's to do: for tests of delivery itself. */
    public static Notifications start(Network network, Settings settings, Clock clock) {
        return start(network, settings, clock, Lease.always("webhook-delivery", "this-process"));
    }

    /**
     * @param lease the delivery lease: deliveries are attempted only while it is held (on SQLite, always); the
     *              caller closes it after closing this
     */
    public static Notifications start(Network network, Settings settings, Clock clock, Lease lease) {
        Egress egress = new Egress(settings.egress(), settings.lookup());
        network.webhooks().checkTargetsWith((url, provider) -> refusal(egress, settings.smtp(), url, provider));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("webhook-timeouts").factory());
        HttpCourier http = new HttpCourier(egress, new GuardedPost(timer, settings.tls(), settings.timeout()),
                settings.tailnet(), clock);
        Courier mail = new MailCourier(settings.smtp(), settings.tailnet(),
                network.accessRequests()::approvers, settings.mailProperties());
        EventObjects objects = new EventObjects(settings.tailnet(), id -> network.snapshots().current().user(id));
        if (!network.leases().shared()) {
            // Alone on its database (SQLite), no claim can be a live worker's: those a killed run left end now, so
            // its cut-off attempts are made again at once after a restart, not when their claims run out.
            network.webhooks().releaseClaims("");
        }
        // Another instance's changes cannot wake this worker: on a shared database it looks every second.
        DeliveryWorker worker = new DeliveryWorker(network.webhooks(), http, mail, clock, lease,
                network.leases().shared() ? Duration.ofSeconds(1) : Duration.ZERO);
        network.webhooks().deliverWith(event -> EventObjects.JSON.writeValueAsString(objects.render(event)),
                worker::wake);
        return new Notifications(network, timer, worker.start());
    }

    /** Looks for due deliveries now rather than at the next poll: for tests that move the clock. */
    public void wake() {
        worker.wake();
    }

    /** Why an endpoint URL may not be stored: the egress guard for http(s), the mail settings for e-mail. */
    private static Optional<String> refusal(Egress egress, MeshConfig.Smtp smtp, String url, String provider) {
        if ("email".equals(provider)) {
            if (!smtp.enabled()) {
                return Optional.of("e-mail endpoints need a mail server, and notifications.smtp.host is unset");
            }
            return MailRecipients.parse(url).problem();
        }
        return switch (egress.check(url)) {
            case Egress.Allowed allowed -> Optional.empty();
            case Egress.Refused refused -> Optional.of(refused.reason());
        };
    }

    @Override
    public void close() {
        worker.close();
        timer.shutdownNow();
        network.webhooks().checkTargetsWith((url, provider) -> Optional.of("webhook delivery has stopped"));
    }
}
