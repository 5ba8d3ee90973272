package io.meshcontrol.gui.policy;

import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Screen;
import java.util.List;
import java.util.Map;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * The policy in an editor with line numbers and colours; its errors listed below it and marked in it, each putting
 * the caret at its line and column when clicked.
 */
public final class PolicyScreen implements Screen {

    private final PolicyViewModel model;
    private final BorderPane root = new BorderPane();
    private final PolicyEditor editor;

    public PolicyScreen(Connection connection, Background background) {
        model = new PolicyViewModel(connection.client(), background);
        editor = new PolicyEditor(model.text());

        Button check = new Button("Check");
        check.setId("checkPolicy");
        check.setOnAction(event -> model.check());
        Button save = new Button("Save (Ctrl+S)");
        save.setId("savePolicy");
        save.setOnAction(event -> model.save());
        Button reload = new Button("Reload");
        reload.setId("reloadPolicy");
        reload.setOnAction(event -> model.load(true));
        Label modified = new Label();
        modified.textProperty().bind(javafx.beans.binding.Bindings.when(model.modified())
                .then("modified, not saved").otherwise(""));
        HBox actions = new HBox(8, check, save, reload, modified);
        actions.setAlignment(Pos.CENTER_LEFT);

        ListView<PolicyError> errors = new ListView<>(model.errors());
        errors.setId("policyErrors");
        errors.setPrefHeight(110);
        errors.getStyleClass().add("errors");
        errors.getSelectionModel().selectedItemProperty().addListener((observable, was, error) -> {
            if (error != null && error.line() > 0) {
                editor.show(error);
            }
        });
        model.errors().addListener((javafx.collections.ListChangeListener<PolicyError>) change ->
                editor.mark(List.copyOf(model.errors())));
        errors.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(model.errors()));
        errors.managedProperty().bind(errors.visibleProperty());

        VBox bottom = new VBox(8, errors, actions);
        bottom.setPadding(new Insets(8, 0, 0, 0));
        root.setCenter(editor.node());
        root.setBottom(bottom);
        root.setPadding(new Insets(8));
    }

    @Override
    public Map<KeyCombination, Runnable> shortcuts() {
        return Map.of(KeyCombination.keyCombination("Shortcut+S"), model::save);
    }

    @Override
    public String title() {
        return "Policy";
    }

    @Override
    public Parent root() {
        return root;
    }

    @Override
    public void refresh() {
        model.load(false);
    }
}
