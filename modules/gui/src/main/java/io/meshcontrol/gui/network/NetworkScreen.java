package io.meshcontrol.gui.network;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.UserView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.screen.Selection;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;

/** Users and the runtime settings on one screen. */
public final class NetworkScreen implements Screen {

    private final NetworkViewModel model;
    private final VBox root = new VBox(10);

    public NetworkScreen(Connection connection, Background background) {
        model = new NetworkViewModel(connection.client(), background);

        TableView<UserView> users = new TableView<>(model.users());
        users.setId("users");
        users.getColumns().add(column("Name", UserView::name));
        users.getColumns().add(column("Display name", user -> user.displayName() == null ? "" : user.displayName()));
        users.getColumns().add(column("E-mail", user -> user.email() == null ? "" : user.email()));
        users.getColumns().add(column("Role", UserView::role));
        users.getColumns().add(column("Approved", user -> user.approved() ? "yes" : "waiting"));
        io.meshcontrol.gui.screen.Controls.fitToContent(users);
        Selection<UserView> user = Selection.of(users, UserView::id);
        users.setPrefHeight(160);
        TextField name = new TextField();
        name.setId("newUserName");
        name.setPromptText("user name");
        Button create = new Button("Create user");
        create.setId("createUser");
        create.setOnAction(event -> model.createUser(name.getText()));
        Button approve = new Button("Approve selected");
        approve.setId("approveUser");
        approve.disableProperty().bind(user.none());
        approve.setOnAction(event -> model.approveUser(user.get()));
        Button delete = new Button("Delete selected");
        delete.setId("deleteUser");
        delete.disableProperty().bind(user.none());
        delete.setOnAction(event -> model.deleteUser(user.get()));

        CheckBox devicesApproval = new CheckBox("New machines need an administrator's approval");
        devicesApproval.setId("devicesApproval");
        devicesApproval.selectedProperty().bindBidirectional(model.devicesApproval());
        CheckBox usersApproval = new CheckBox("New users need an administrator's approval");
        usersApproval.setId("usersApproval");
        usersApproval.selectedProperty().bindBidirectional(model.usersApproval());
        io.meshcontrol.gui.screen.DurationField keyDuration = new io.meshcontrol.gui.screen.DurationField(
                "keyDurationDays", "days, 30d, 2w", "7d", "30d", "90d", "180d", "365d");
        TextField keyDays = keyDuration.field();
        keyDays.setPrefColumnCount(5);
        keyDays.textProperty().bindBidirectional(model.keyDurationDays());
        Button saveSettings = new Button("Save settings");
        saveSettings.setId("saveSettings");
        saveSettings.setOnAction(event -> model.saveSettings());

        root.getChildren().addAll(
                heading("Users"), users, row(name, create, approve, delete),
                heading("Settings"), devicesApproval, usersApproval,
                row(new Label("Machine keys expire after (days, 30d, 2w; 0: node.expiry of the configuration)"),
                        keyDuration.node()), saveSettings);
        root.setPadding(new Insets(8));
    }

    @Override
    public String title() {
        return "Users, settings";
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
