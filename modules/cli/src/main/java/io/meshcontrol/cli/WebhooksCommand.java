package io.meshcontrol.cli;

import io.meshcontrol.api.IssuedWebhook;
import io.meshcontrol.api.WebhookDeliveryList;
import io.meshcontrol.api.WebhookDeliveryView;
import io.meshcontrol.api.WebhookEventTypes;
import io.meshcontrol.api.WebhookList;
import io.meshcontrol.api.WebhookRequest;
import io.meshcontrol.api.WebhookView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "webhooks", description = "Manage webhook endpoints: signed JSON arrays, chat providers and e-mail. "
        + "See docs/events.md.",
        subcommands = {WebhooksCommand.Create.class, WebhooksCommand.ListEndpoints.class, WebhooksCommand.Get.class,
                WebhooksCommand.Update.class, WebhooksCommand.Delete.class, WebhooksCommand.Rotate.class,
                WebhooksCommand.Test.class, WebhooksCommand.Deliveries.class, WebhooksCommand.EventTypes.class})
final class WebhooksCommand extends CommandGroup {

    static final List<Output.Column<WebhookView>> COLUMNS = List.of(
            new Output.Column<>("ID", WebhookView::id),
            new Output.Column<>("URL", WebhookView::url),
            new Output.Column<>("PROVIDER", w -> w.provider().isEmpty() ? "-" : w.provider()),
            new Output.Column<>("EVENTS", w -> String.join(",", w.subscriptions())));

    static final List<Output.Column<WebhookDeliveryView>> DELIVERY_COLUMNS = List.of(
            new Output.Column<>("FINISHED", d -> d.finishedAt().toString()),
            new Output.Column<>("EVENTS", d -> String.join(",", d.eventTypes())),
            new Output.Column<>("STATUS", d -> d.status() == null ? "-" : d.status()),
            new Output.Column<>("ATTEMPTS", d -> Integer.toString(d.attempts())),
            new Output.Column<>("DURATION", d -> d.durationMs() + " ms"),
            new Output.Column<>("ERROR", d -> d.error() == null ? "" : d.error()));

    static final class Id {
        @Option(names = "--id", required = true, description = "The endpoint's id, as listed")
        String id;
    }

    @Command(name = "create", description = "Create an endpoint; its signing secret is printed once.")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--url", required = true,
                description = "http(s) URL, or mailto:a@example.com,approvers for --provider email")
        String url;

        @Option(names = "--provider", description = "slack, mattermost, googlechat, teams, discord, telegram, ntfy "
                + "or email; left out: the signed JSON array")
        String provider;

        @Option(names = "--event", description = "An event type to send (repeatable); see webhooks event-types")
        List<String> events;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            IssuedWebhook issued = client().createWebhook(new WebhookRequest(url, provider, events));
            output.printSecret(context(), issued, issued.secret(), List.of("webhook endpoint "
                    + issued.webhook().id() + " created; the secret above signs its requests and is not shown again"));
            return 0;
        }
    }

    @Command(name = "list", description = "List endpoints (never their secrets).")
    static final class ListEndpoints extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<WebhookView> webhooks = client().webhooks();
            output.print(context(), new WebhookList(webhooks), webhooks, COLUMNS);
            return 0;
        }
    }

    @Command(name = "get", description = "Show one endpoint.")
    static final class Get extends Subcommand implements Callable<Integer> {
        @Mixin
        Id id;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            WebhookView webhook = client().webhook(id.id);
            output.print(context(), webhook, List.of(webhook), COLUMNS);
            return 0;
        }
    }

    @Command(name = "update", description = "Replace the event types an endpoint hears.")
    static final class Update extends Subcommand implements Callable<Integer> {
        @Mixin
        Id id;

        @Option(names = "--event", description = "An event type to send (repeatable); none: only test events")
        List<String> events;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            WebhookView webhook = client().updateWebhook(id.id, events == null ? List.of() : events);
            output.print(context(), webhook, List.of(webhook), COLUMNS);
            return 0;
        }
    }

    @Command(name = "delete", description = "Delete an endpoint with its pending deliveries and history.")
    static final class Delete extends Subcommand implements Callable<Integer> {
        @Mixin
        Id id;

        @Override
        public Integer call() {
            client().deleteWebhook(id.id);
            context().note("deleted webhook endpoint " + id.id);
            return 0;
        }
    }

    @Command(name = "rotate", description = "Issue a new signing secret, printed once; the old one signs no more.")
    static final class Rotate extends Subcommand implements Callable<Integer> {
        @Mixin
        Id id;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            IssuedWebhook issued = client().rotateWebhook(id.id);
            output.printSecret(context(), issued, issued.secret(), List.of("webhook endpoint " + id.id
                    + " has a new secret; the one above is not shown again"));
            return 0;
        }
    }

    @Command(name = "test", description = "Send a test event to an endpoint (it needs no subscription).")
    static final class Test extends Subcommand implements Callable<Integer> {
        @Mixin
        Id id;

        @Override
        public Integer call() {
            client().testWebhook(id.id);
            context().note("test event queued for webhook endpoint " + id.id + "; see webhooks deliveries");
            return 0;
        }
    }

    @Command(name = "deliveries", description = "An endpoint's finished deliveries, newest first (the last 100).")
    static final class Deliveries extends Subcommand implements Callable<Integer> {
        @Mixin
        Id id;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<WebhookDeliveryView> deliveries = client().webhookDeliveries(id.id);
            output.print(context(), new WebhookDeliveryList(deliveries), deliveries, DELIVERY_COLUMNS);
            return 0;
        }
    }

    @Command(name = "event-types", description = "The event types an endpoint may subscribe to.")
    static final class EventTypes extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<String> types = client().webhookEventTypes();
            output.print(context(), new WebhookEventTypes(types), types,
                    List.of(new Output.Column<String>("TYPE", type -> type)));
            return 0;
        }
    }
}
