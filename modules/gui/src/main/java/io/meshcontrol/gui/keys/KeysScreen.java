package io.meshcontrol.gui.keys;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.HumanDuration;
import io.meshcontrol.api.NewPreAuthKeyDefaults;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.screen.Selection;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** API keys and pre-auth keys: tables, creation forms, and the one-time secret with its Copy buttons. */
public final class KeysScreen implements Screen {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    private final KeysViewModel model;
    private final VBox root = new VBox(10);

    public KeysScreen(Connection connection, Background background) {
        model = new KeysViewModel(connection.client(), background, connection.server().serverUrl());

        // The secret just issued, shown once.
        TextField secret = readOnly("issuedSecret");
        secret.textProperty().bind(model.secret());
        TextField command = readOnly("joinCommand");
        command.textProperty().bind(model.joinCommand());
        command.visibleProperty().bind(model.joinCommand().isNotEmpty());
        Button copySecret = new Button("Copy key");
        copySecret.setId("copySecret");
        copySecret.setOnAction(event -> copy(model.secret().get()));
        Button copyCommand = new Button("Copy command");
        copyCommand.setId("copyCommand");
        copyCommand.visibleProperty().bind(model.joinCommand().isNotEmpty());
        copyCommand.setOnAction(event -> copy(model.joinCommand().get()));
        Button done = new Button("Done");
        done.setId("dismissSecret");
        done.setOnAction(event -> model.dismissSecret());
        Label note = new Label();
        note.textProperty().bind(model.secretNote());
        note.getStyleClass().add("warning-text");
        VBox issued = new VBox(6, note, new HBox(8, secret, copySecret, done), new HBox(8, command, copyCommand));
        HBox.setHgrow(secret, Priority.ALWAYS);
        HBox.setHgrow(command, Priority.ALWAYS);
        issued.getStyleClass().add("secret-panel");
        issued.setPadding(new Insets(8));
        issued.visibleProperty().bind(model.secret().isNotEmpty());
        issued.managedProperty().bind(issued.visibleProperty());

        // API keys
        TableView<ApiKeyView> apiKeys = new TableView<>(model.apiKeys());
        apiKeys.setId("apiKeys");
        apiKeys.getColumns().add(column("Prefix", ApiKeyView::prefix));
        apiKeys.getColumns().add(column("Description", key -> key.description() == null ? "" : key.description()));
        apiKeys.getColumns().add(column("Owner", key -> key.user() == null ? "all access" : key.user()));
        apiKeys.getColumns().add(column("Created", key -> time(key.createdAt())));
        apiKeys.getColumns().add(column("Expires", key -> key.expired() ? "expired" : time(key.expiresAt())));
        apiKeys.getColumns().add(column("Last used", key -> time(key.lastUsedAt())));
        io.meshcontrol.gui.screen.Controls.fitToContent(apiKeys);
        Selection<ApiKeyView> apiKey = Selection.of(apiKeys, ApiKeyView::prefix);
        apiKeys.setPrefHeight(180);
        TextField description = new TextField();
        description.setId("apiKeyDescription");
        description.setPromptText("description");
        io.meshcontrol.gui.screen.DurationField apiExpiry = new io.meshcontrol.gui.screen.DurationField(
                "apiKeyExpiration", "expires in (30d, 2w, 720h; empty: 90 days)", "1d", "7d", "30d", "90d", "365d");
        TextField expiration = apiExpiry.field();
        Button create = new Button("Create API key");
        create.setId("createApiKey");
        create.setOnAction(event -> model.createApiKey(description.getText(), expiration.getText()));
        Button expire = new Button("Expire selected");
        expire.setTooltip(new javafx.scene.control.Tooltip("Ctrl+click or Shift+click selects several: one request"));
        expire.setId("expireApiKey");
        expire.disableProperty().bind(apiKey.none());
        apiKeys.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        expire.setOnAction(event -> {
            java.util.List<ApiKeyView> chosen = java.util.List.copyOf(apiKeys.getSelectionModel().getSelectedItems());
            if (chosen.size() > 1) {
                io.meshcontrol.gui.screen.Controls.confirm(root, "Expire " + chosen.size() + " API keys ("
                        + String.join(", ", chosen.stream().map(ApiKeyView::prefix).toList())
                        + ")? Programs using them are refused from now on.", () -> model.expireApiKeys(chosen));
            } else {
                model.expireApiKey(apiKey.get());
            }
        });

        // Pre-auth keys
        TableView<PreAuthKeyView> preAuthKeys = new TableView<>(model.preAuthKeys());
        preAuthKeys.setId("preAuthKeys");
        preAuthKeys.getColumns().add(column("Prefix", PreAuthKeyView::prefix));
        preAuthKeys.getColumns().add(column("User", key -> key.user() == null ? "" : key.user()));
        preAuthKeys.getColumns().add(column("Tags", key -> String.join(" ", key.tags())));
        preAuthKeys.getColumns().add(column("Kind", key -> (key.reusable() ? "reusable" : "one use")
                + (key.ephemeral() ? ", ephemeral" : "")));
        preAuthKeys.getColumns().add(column("Used", key -> Integer.toString(key.useCount())));
        preAuthKeys.getColumns().add(column("Valid", key -> key.valid() ? "yes" : key.invalidReason()));
        preAuthKeys.getColumns().add(column("Expires", key -> time(key.expiresAt())));
        io.meshcontrol.gui.screen.Controls.fitToContent(preAuthKeys);
        Selection<PreAuthKeyView> preAuthKey = Selection.of(preAuthKeys, PreAuthKeyView::id);
        preAuthKeys.setPrefHeight(180);
        ComboBox<String> user = new ComboBox<>(model.users());
        user.setId("preAuthUser");
        user.setPromptText("owner");
        // The list is read with the keys; the first real user is the likely choice.
        model.users().addListener((javafx.collections.ListChangeListener<String>) change -> {
            if (user.getValue() == null || !model.users().contains(user.getValue())) {
                user.setValue(model.users().size() > 1 ? model.users().get(1) : null);
            }
        });
        TextField tags = new TextField();
        tags.setId("preAuthTags");
        tags.setPromptText("tags (tag:server)");
        // a new key starts as in the console and the CLI (NewPreAuthKeyDefaults)
        CheckBox reusable = new CheckBox("reusable");
        reusable.setId("preAuthReusable");
        reusable.setSelected(NewPreAuthKeyDefaults.STANDARD.reusable());
        CheckBox ephemeral = new CheckBox("ephemeral");
        ephemeral.setSelected(NewPreAuthKeyDefaults.STANDARD.ephemeral());
        ephemeral.setId("preAuthEphemeral");
        CheckBox preApproved = new CheckBox("pre-approved");
        preApproved.setId("preAuthPreApproved");
        preApproved.setSelected(NewPreAuthKeyDefaults.STANDARD.preauthorized());
        preApproved.setTooltip(new javafx.scene.control.Tooltip(
                "Machines joining with this key need no administrator's approval"));
        io.meshcontrol.gui.screen.DurationField preAuthExpiry = new io.meshcontrol.gui.screen.DurationField(
                "preAuthExpiration", "expires in (empty: " + HumanDuration.describe(HumanDuration.parse(
                        NewPreAuthKeyDefaults.STANDARD.expiration())) + "; 7d, 2w)", "1h", "1d", "7d", "30d", "90d");
        TextField keyExpiration = preAuthExpiry.field();
        Button createPreAuth = new Button("Create pre-auth key");
        createPreAuth.setId("createPreAuthKey");
        createPreAuth.setOnAction(event -> model.createPreAuthKey(user.getValue(), tags.getText(),
                reusable.isSelected(), ephemeral.isSelected(), preApproved.isSelected(), keyExpiration.getText()));
        Button revoke = new Button("Revoke selected");
        revoke.setTooltip(new javafx.scene.control.Tooltip("Ctrl+click or Shift+click selects several: one request"));
        revoke.setId("revokePreAuthKey");
        revoke.disableProperty().bind(preAuthKey.none());
        preAuthKeys.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        revoke.setOnAction(event -> {
            java.util.List<PreAuthKeyView> chosen = java.util.List.copyOf(
                    preAuthKeys.getSelectionModel().getSelectedItems());
            if (chosen.size() > 1) {
                io.meshcontrol.gui.screen.Controls.confirm(root, "Revoke " + chosen.size() + " pre-auth keys ("
                        + String.join(", ", chosen.stream().map(PreAuthKeyView::prefix).toList())
                        + ")? No machine can join with them any more.", () -> model.revokePreAuthKeys(chosen));
            } else {
                model.revokePreAuthKey(preAuthKey.get());
            }
        });

        root.getChildren().addAll(issued,
                heading("API keys"), apiKeys, row(description, apiExpiry.node(), create, expire),
                heading("Pre-auth keys (join machines)"), preAuthKeys,
                wrapping(user, tags, reusable, ephemeral, preApproved, preAuthExpiry.node(), createPreAuth, revoke));
        root.setPadding(new Insets(8));
    }

    /** A form row that wraps onto a second line in a narrow window rather than cutting its labels ("reusa..."). */
    private static javafx.scene.layout.FlowPane wrapping(javafx.scene.Node... nodes) {
        for (javafx.scene.Node node : nodes) {
            if (node instanceof javafx.scene.control.Control control) {
                control.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            }
        }
        javafx.scene.layout.FlowPane pane = new javafx.scene.layout.FlowPane(8, 6, nodes);
        pane.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        return pane;
    }

    private static TextField readOnly(String id) {
        TextField field = new TextField();
        field.setId(id);
        field.setEditable(false);
        field.getStyleClass().add("code");
        return field;
    }

    private static void copy(String text) {
        ClipboardContent content = new ClipboardContent();
        content.putString(text);
        Clipboard.getSystemClipboard().setContent(content);
    }

    private static String time(Instant instant) {
        return instant == null ? "" : DAY.format(instant);
    }

    @Override
    public String title() {
        return "Keys";
    }

    @Override
    public Parent root() {
        return root;
    }

    @Override
    public void refresh() {
        model.refresh();
    }
}
