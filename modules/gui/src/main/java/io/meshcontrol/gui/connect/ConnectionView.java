package io.meshcontrol.gui.connect;

import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.PasswordField;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/** The connection screen: saved servers on the left, the chosen one's fields on the right. */
public final class ConnectionView {

    private final BorderPane root = new BorderPane();

    public ConnectionView(ConnectionViewModel model) {
        ListView<Profile> saved = new ListView<>(model.profiles());
        saved.setId("profiles");
        saved.setPrefWidth(240);
        saved.getSelectionModel().select(model.selected().get());
        saved.getSelectionModel().selectedItemProperty().addListener((observable, was, profile) -> {
            if (profile != null) {
                model.selected().set(profile);
            }
        });
        model.selected().addListener((observable, was, profile) -> {
            if (profile == null) {
                saved.getSelectionModel().clearSelection();
            } else {
                saved.getSelectionModel().select(profile);
            }
        });
        Button add = new Button("New remote server");
        add.setId("newServer");
        add.setOnAction(event -> model.newRemote());
        Button forget = new Button("Forget");
        forget.setId("forgetServer");
        forget.disableProperty().bind(model.local());
        forget.setOnAction(event -> model.forgetSelected());
        VBox left = new VBox(8, new Label("Saved servers"), saved, new HBox(8, add, forget));
        left.setPadding(new Insets(16));

        ToggleGroup kind = new ToggleGroup();
        RadioButton localChoice = new RadioButton("The server on this computer (no key needed)");
        localChoice.setId("localServer");
        localChoice.setToggleGroup(kind);
        RadioButton remoteChoice = new RadioButton("A remote server (address and API key)");
        remoteChoice.setId("remoteServer");
        remoteChoice.setToggleGroup(kind);
        localChoice.setSelected(model.local().get());
        remoteChoice.setSelected(!model.local().get());
        model.local().addListener((observable, was, isLocal) -> (isLocal ? localChoice : remoteChoice).setSelected(true));
        localChoice.selectedProperty().addListener((observable, was, isLocal) -> model.local().set(isLocal));

        TextField name = new TextField();
        name.setId("serverName");
        name.setPromptText("a name for the list (the host when empty)");
        name.textProperty().bindBidirectional(model.name());
        TextField address = new TextField();
        address.setId("serverAddress");
        address.setPromptText("https://mesh.example.com");
        address.textProperty().bindBidirectional(model.address());
        PasswordField key = new PasswordField();
        key.setId("apiKey");
        key.setPromptText("API key (svc apikeys create)");
        key.textProperty().bindBidirectional(model.apiKey());
        CheckBox insecure = new CheckBox("Skip certificate check (insecure: only for a server you trust)");
        insecure.setId("insecure");
        insecure.selectedProperty().bindBidirectional(model.insecure());

        GridPane remote = new GridPane();
        remote.setHgap(8);
        remote.setVgap(8);
        remote.addRow(0, new Label("Name"), name);
        remote.addRow(1, new Label("Address"), address);
        remote.addRow(2, new Label("API key"), key);
        remote.add(insecure, 1, 3);
        remote.disableProperty().bind(model.local());
        name.setPrefColumnCount(32);

        Button connect = new Button("Connect");
        connect.setId("connect");
        connect.setDefaultButton(true);
        connect.disableProperty().bind(model.connecting());
        connect.setOnAction(event -> model.connect());
        Button cancel = new Button("Cancel");
        cancel.setId("cancelConnect");
        cancel.visibleProperty().bind(model.connecting());
        cancel.setOnAction(event -> model.cancel());
        ProgressIndicator progress = new ProgressIndicator();
        progress.setPrefSize(20, 20);
        progress.visibleProperty().bind(model.connecting());
        Label message = new Label();
        message.setId("connectionMessage");
        message.getStyleClass().add("error-text");
        message.setWrapText(true);
        message.textProperty().bind(model.message());

        Label title = new Label("Connect to a Mesh Control server");
        title.getStyleClass().add("title");
        VBox right = new VBox(12, title, localChoice, remoteChoice, remote, new HBox(8, connect, cancel, progress),
                message);
        right.setPadding(new Insets(16));
        root.setLeft(left);
        root.setCenter(right);
        root.getStyleClass().add("connection");
    }

    public Parent root() {
        return root;
    }
}
