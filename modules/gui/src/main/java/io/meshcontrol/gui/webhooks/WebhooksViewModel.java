package io.meshcontrol.gui.webhooks;

import io.meshcontrol.api.IssuedWebhook;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.WebhookDeliveryView;
import io.meshcontrol.api.WebhookRequest;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.NewestRead;
import io.meshcontrol.gui.screen.SecretPanel;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The webhooks screen: the endpoints, creating one (its signing secret shown once), a test event, rotating the
 * secret (the new one shown once), deleting, and the selected endpoint's delivery history, newest first.
 */
public final class WebhooksViewModel {

    private record Lists(List<WebhookView> webhooks, List<String> eventTypes) {
    }

    private final MeshClient client;
    private final Background background;
    private final ObservableList<WebhookView> webhooks = FXCollections.observableArrayList();
    private final ObservableList<String> eventTypes = FXCollections.observableArrayList();
    private final ObservableList<WebhookDeliveryView> deliveries = FXCollections.observableArrayList();
    private final ObjectProperty<WebhookView> selected = new SimpleObjectProperty<>();
    private final SecretPanel secret = new SecretPanel("webhookSecret");
    /** A test's read and the read after the delivery it made can overlap: the newest one's answer is shown. */
    private final NewestRead deliveriesRead = new NewestRead();

    public WebhooksViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
        selected.addListener((observable, was, webhook) -> readDeliveries());
    }

    public void refresh() {
        background.run("Reading the webhooks", () -> new Lists(client.webhooks(), client.webhookEventTypes()),
                lists -> {
                    String id = selected.get() == null ? null : selected.get().id();
                    webhooks.setAll(lists.webhooks());
                    eventTypes.setAll(lists.eventTypes());
                    selected.set(lists.webhooks().stream().filter(hook -> hook.id().equals(id)).findFirst()
                            .orElse(null));
                    readDeliveries();
                });
    }

    /** The selected endpoint's deliveries (attempts, not changes of state: read on demand and after a test). */
    public void readDeliveries() {
        WebhookView webhook = selected.get();
        if (webhook == null) {
            deliveriesRead.start(); // a read still under way is for a webhook no longer selected
            deliveries.clear();
            return;
        }
        NewestRead.Read read = deliveriesRead.start();
        background.quietly(() -> client.webhookDeliveries(webhook.id()), read.ifNewest(deliveries::setAll),
                read.ifNewest(failure -> deliveries.clear()));
    }

    /** @param provider empty for the signed JSON array; slack, discord, mattermost, googlechat, email... */
    public void create(String url, String provider, List<String> subscriptions) {
        WebhookRequest request = new WebhookRequest(Controls.blankToNull(url), Controls.blankToNull(provider),
                subscriptions);
        background.run("Creating a webhook", () -> client.createWebhook(request), (IssuedWebhook issued) -> {
            showSecret(issued, "Signing secret of " + issued.webhook().url() + ": copy it now, it is not shown again.");
            refresh();
        });
    }

    public void test() {
        WebhookView webhook = selected.get();
        if (webhook == null) {
            return;
        }
        background.run("Sending a test event to " + webhook.url(), () -> {
            client.testWebhook(webhook.id());
            return webhook;
        }, sent -> {
            background.tell("Test event sent to " + webhook.url() + " (see its deliveries)");
            readDeliveries();
        });
    }

    public void rotate() {
        WebhookView webhook = selected.get();
        if (webhook == null) {
            return;
        }
        background.run("Rotating the secret of " + webhook.url(), () -> client.rotateWebhook(webhook.id()),
                issued -> showSecret(issued, "New signing secret of " + webhook.url()
                        + ": copy it now, it is not shown again. The old one no longer signs."));
    }

    public void delete() {
        WebhookView webhook = selected.get();
        if (webhook == null) {
            return;
        }
        background.run("Deleting the webhook " + webhook.url(), () -> {
            client.deleteWebhook(webhook.id());
            return webhook;
        }, deleted -> {
            secret.forget(deleted.id());
            selected.set(null);
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Deleted the webhook " + deleted.url());
        });
    }

    private void showSecret(IssuedWebhook issued, String note) {
        secret.show(issued.webhook().id(), issued.secret(), note);
    }

    public ObservableList<WebhookView> webhooks() {
        return webhooks;
    }

    public ObservableList<String> eventTypes() {
        return eventTypes;
    }

    public ObservableList<WebhookDeliveryView> deliveries() {
        return deliveries;
    }

    public ObjectProperty<WebhookView> selected() {
        return selected;
    }

    public SecretPanel secret() {
        return secret;
    }
}
