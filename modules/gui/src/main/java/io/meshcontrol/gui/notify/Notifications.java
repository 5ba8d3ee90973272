package io.meshcontrol.gui.notify;

import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.OverviewView;
import io.meshcontrol.api.WebhookDeliveryView;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Change;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What waits for an administrator now, kept from the server's event stream: machines waiting for approval, pending
 * access requests, webhooks whose last delivery failed, relay regions down. Each kind is read again when a change
 * may have touched it, and its notices replaced: a notice goes away when its item is dealt with (anywhere: here, the
 * console, the CLI), so the list is the state, not a log.
 *
 * <p>The stream announces a finished delivery (delivered, or failed for good after its retries) under the
 * {@code webhook} area, as it does the endpoints' own changes: the deliveries are read again then.
 */
public final class Notifications {

    private final MeshClient client;
    private final Background background;
    private final Map<Notice.Kind, List<Notice>> byKind = new EnumMap<>(Notice.Kind.class);
    private final ObservableList<Notice> notices = FXCollections.observableArrayList();
    private final Map<Notice.Kind, Boolean> reading = new EnumMap<>(Notice.Kind.class);
    private final Map<Notice.Kind, Boolean> readAgain = new EnumMap<>(Notice.Kind.class);

    public Notifications(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    /** The event stream said something changed: the kinds it may have touched are read again. */
    public void changed(Change change) {
        if (change.machines()) {
            read(Notice.Kind.MACHINE_WAITING, this::waitingMachines);
        }
        if (change.area("accessrequest")) {
            read(Notice.Kind.ACCESS_REQUEST, this::pendingRequests);
        }
        if (change.all() || change.area("webhook")) {
            read(Notice.Kind.WEBHOOK_FAILING, this::failingWebhooks);
        }
        if (change.all() || change.context() || change.area("derp") || !change.nodes().isEmpty()) {
            read(Notice.Kind.RELAY_DOWN, this::relaysDown);
        }
    }

    /** One read per kind at a time; a change during it reads once more after it. */
    private void read(Notice.Kind kind, Callable<List<Notice>> work) {
        if (reading.getOrDefault(kind, false)) {
            readAgain.put(kind, true);
            return;
        }
        reading.put(kind, true);
        background.quietly(work, found -> {
            done(kind, work);
            byKind.put(kind, found);
            List<Notice> all = new ArrayList<>();
            byKind.values().forEach(all::addAll);
            if (!all.equals(notices)) {
                notices.setAll(all);
            }
        }, failure -> done(kind, work)); // not readable (a key without that scope): no notices of that kind
    }

    private void done(Notice.Kind kind, Callable<List<Notice>> work) {
        reading.put(kind, false);
        if (readAgain.getOrDefault(kind, false)) {
            readAgain.put(kind, false);
            read(kind, work);
        }
    }

    private List<Notice> waitingMachines() {
        return client.nodes(Map.of("needsApproval", "true")).nodes().stream()
                .map(node -> new Notice(Notice.Kind.MACHINE_WAITING, node.id(), "Machine " + node.name()
                        + " waits for approval" + owner(node)))
                .toList();
    }

    private static String owner(NodeView node) {
        return node.user() != null ? " (" + node.user() + ")"
                : node.tags().isEmpty() ? "" : " (" + String.join(" ", node.tags()) + ")";
    }

    private List<Notice> pendingRequests() {
        return client.accessRequests().stream().filter(request -> "pending".equals(request.state()))
                .map(Notifications::request).toList();
    }

    private static Notice request(AccessRequestView request) {
        return new Notice(Notice.Kind.ACCESS_REQUEST, request.id(), "Access request: " + request.user() + " asks to join "
                + request.group() + (request.duration() == null ? "" : " for " + request.duration()));
    }

    private List<Notice> failingWebhooks() {
        List<Notice> failing = new ArrayList<>();
        for (WebhookView hook : client.webhooks()) {
            List<WebhookDeliveryView> deliveries = client.webhookDeliveries(hook.id());
            WebhookDeliveryView last = deliveries.stream().max(java.util.Comparator.comparing(
                    WebhookDeliveryView::finishedAt, java.util.Comparator.nullsFirst(java.util.Comparator
                            .naturalOrder()))).orElse(null);
            if (last != null && last.error() != null) {
                failing.add(new Notice(Notice.Kind.WEBHOOK_FAILING, hook.id(), "Webhook " + hook.url()
                        + " fails: " + last.error()));
            }
        }
        return failing;
    }

    private List<Notice> relaysDown() {
        OverviewView overview = client.overview();
        return overview.relays() == null ? List.of() : overview.relays().stream()
                .filter(relay -> "down".equals(relay.status()))
                .map(relay -> new Notice(Notice.Kind.RELAY_DOWN, Integer.toString(relay.regionId()),
                        "Relay region " + relay.code() + " (" + relay.regionId() + ") is down: no machine reaches it"))
                .toList();
    }

    public ObservableList<Notice> notices() {
        return notices;
    }
}
