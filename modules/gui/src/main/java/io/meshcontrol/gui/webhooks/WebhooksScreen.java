package io.meshcontrol.gui.webhooks;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.WebhookDeliveryView;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Change;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import java.util.Map;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.VBox;

/** Webhook endpoints: create, test, rotate the secret, delete, and the delivery history of the selected one. */
public final class WebhooksScreen implements Screen {

    private final WebhooksViewModel model;
    private final VBox root = new VBox(10);
    private final TextField url;
    private TableView<WebhookView> table;

    public WebhooksScreen(Connection connection, Background background) {
        model = new WebhooksViewModel(connection.client(), background);

        TableView<WebhookView> hooks = Controls.table("webhooks", model.webhooks(),
                column("URL", WebhookView::url),
                column("Format", hook -> hook.provider() == null || hook.provider().isEmpty() ? "signed JSON"
                        : hook.provider()),
                column("Events", hook -> String.join(", ", hook.subscriptions())),
                column("Created", hook -> Controls.time(hook.createdAt())));
        table = hooks;
        hooks.setPlaceholder(new Label("No webhooks: add an endpoint below"));
        io.meshcontrol.gui.screen.Selection.of(hooks, WebhookView::id);
        hooks.setPrefHeight(170);
        hooks.getSelectionModel().selectedItemProperty().addListener((observable, was, hook) -> {
            if (hook != null) {
                model.selected().set(hook);
            }
        });
        model.selected().addListener((observable, was, hook) -> {
            if (hook == null) {
                hooks.getSelectionModel().clearSelection();
            }
        });

        url = Controls.field("webhookUrl", "https://hooks.example.com/mesh (Ctrl+N)");
        url.setPrefColumnCount(28);
        ComboBox<String> provider = new ComboBox<>(javafx.collections.FXCollections.observableArrayList(
                "signed JSON", "slack", "discord", "mattermost", "googlechat", "teams", "ntfy", "email"));
        provider.setId("webhookProvider");
        provider.getSelectionModel().selectFirst();
        ListView<String> events = new ListView<>(model.eventTypes());
        events.setId("webhookEvents");
        events.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        events.setPrefHeight(110);
        Button create = new Button("Create webhook");
        create.setId("createWebhook");
        create.setOnAction(event -> model.create(url.getText(),
                provider.getSelectionModel().getSelectedIndex() <= 0 ? "" : provider.getValue(),
                java.util.List.copyOf(events.getSelectionModel().getSelectedItems())));

        Button test = new Button("Send test event");
        test.setId("testWebhook");
        Button rotate = new Button("Rotate secret");
        rotate.setId("rotateWebhook");
        Button delete = new Button("Delete");
        delete.setId("deleteWebhook");
        delete.getStyleClass().add("danger");
        Button reload = new Button("Reload deliveries");
        reload.setId("reloadDeliveries");
        for (Button button : new Button[] {test, rotate, delete, reload}) {
            button.disableProperty().bind(model.selected().isNull());
        }
        test.setOnAction(event -> model.test());
        rotate.setOnAction(event -> Controls.confirm(root, "Rotate the secret of " + model.selected().get().url()
                + "? The old secret stops signing at once.", model::rotate));
        delete.setOnAction(event -> Controls.confirm(root, "Delete the webhook " + model.selected().get().url()
                + "? Its deliveries stop.", model::delete));
        reload.setOnAction(event -> model.readDeliveries());

        TableView<WebhookDeliveryView> deliveries = Controls.table("webhookDeliveries", model.deliveries(),
                column("Finished", delivery -> Controls.time(delivery.finishedAt())),
                column("Events", delivery -> String.join(", ", delivery.eventTypes())),
                column("Status", delivery -> delivery.status() + (delivery.error() == null ? "" : ": " + delivery.error())),
                column("Attempts", delivery -> Integer.toString(delivery.attempts())),
                column("Took", delivery -> delivery.durationMs() + " ms"));
        deliveries.setPlaceholder(new Label("No deliveries for the selected webhook"));
        deliveries.setPrefHeight(170);

        root.getChildren().addAll(model.secret().root(), heading("Webhook endpoints"), hooks,
                row(test, rotate, delete),
                heading("New endpoint (hold Ctrl to pick several events)"), row(url, provider, create), events,
                heading("Deliveries of the selected endpoint, newest first"), row(reload), deliveries);
        root.setPadding(new Insets(8));
    }

    @Override
    public String title() {
        return "Webhooks";
    }

    @Override
    public Parent root() {
        return root;
    }

    @Override
    public void refresh() {
        model.refresh();
    }

    @Override
    public void show(String id) {
        Controls.selectWhenListed(table, hook -> hook.id().equals(id));
    }

    @Override
    public void changed(Change change) {
        if (!change.all() && change.area("webhook")) {
            model.readDeliveries();
        }
    }

    @Override
    public Map<KeyCombination, Runnable> shortcuts() {
        return Map.of(KeyCombination.keyCombination("Shortcut+N"), url::requestFocus);
    }
}
