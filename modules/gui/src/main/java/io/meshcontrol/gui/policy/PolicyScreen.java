package io.meshcontrol.gui.policy;

import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Screen;
import java.util.Map;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/** The policy in an editor; its errors listed below it, each selecting its line when clicked. */
public final class PolicyScreen implements Screen {

    private final PolicyViewModel model;
    private final BorderPane root = new BorderPane();
    private final TextArea editor = new TextArea();

    public PolicyScreen(Connection connection, Background background) {
        model = new PolicyViewModel(connection.client(), background);
        editor.setId("policyEditor");
        editor.getStyleClass().add("code");
        editor.textProperty().bindBidirectional(model.text());

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
                selectLine(error.line());
            }
        });
        model.errors().addListener((javafx.collections.ListChangeListener<PolicyError>) change -> {
            if (!model.errors().isEmpty() && model.errors().getFirst().line() > 0) {
                selectLine(model.errors().getFirst().line());
            }
        });
        errors.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(model.errors()));
        errors.managedProperty().bind(errors.visibleProperty());

        VBox bottom = new VBox(8, errors, actions);
        bottom.setPadding(new Insets(8, 0, 0, 0));
        root.setCenter(editor);
        root.setBottom(bottom);
        root.setPadding(new Insets(8));
    }

    /** Puts the caret on the line (1-based) and selects it, so the error's place shows. */
    private void selectLine(int line) {
        String text = editor.getText();
        int start = 0;
        for (int i = 1; i < line && start >= 0; i++) {
            start = text.indexOf('\n', start) + 1;
            if (start == 0) {
                return;
            }
        }
        int end = text.indexOf('\n', start);
        editor.selectRange(start, end < 0 ? text.length() : end);
        editor.requestFocus();
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
