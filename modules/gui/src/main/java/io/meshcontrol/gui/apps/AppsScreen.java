package io.meshcontrol.gui.apps;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.AppView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.screen.Selection;
import java.util.stream.Collectors;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/** Apps: the table with their connectors, and a form that creates one or saves the selected one. */
public final class AppsScreen implements Screen {

    private final AppsViewModel model;
    private final VBox root = new VBox(10);

    public AppsScreen(Connection connection, Background background) {
        model = new AppsViewModel(connection.client(), background);
        TableView<AppView> table = Controls.table("apps", model.apps(),
                column("App", AppView::name),
                column("Domains", app -> String.join(" ", app.domains())),
                column("Connectors", app -> String.join(" ", app.connectors())),
                column("Routes", app -> app.routes() == null ? "" : String.join(" ", app.routes())),
                column("Connector machines", app -> app.connectorNodes() == null ? ""
                        : app.connectorNodes().stream().map(node -> node.name() + (node.online() ? " (online)" : " (offline)")
                        + (node.pendingRoutes() > 0 ? ", " + node.pendingRoutes() + " routes waiting" : ""))
                        .collect(Collectors.joining("; "))),
                column("Description", app -> Controls.orEmpty(app.description())));
        table.setPlaceholder(new Label("No apps: route a domain through connector machines below"));
        Selection<AppView> selection = Selection.of(table, AppView::id);
        table.setPrefHeight(240);

        TextField name = Controls.field("appName", "github");
        TextField description = Controls.field("appDescription", "what it is for");
        TextField domains = Controls.field("appDomains", "github.com, *.github.com");
        TextField connectors = Controls.field("appConnectors", "tag:connector");
        TextField routes = Controls.field("appRoutes", "static routes (optional): 140.82.112.0/20");
        for (TextField field : new TextField[] {name, description, domains, connectors, routes}) {
            field.setPrefColumnCount(30);
        }
        table.getSelectionModel().selectedItemProperty().addListener((observable, was, app) -> {
            if (app != null && (was == null || !was.id().equals(app.id()))) {
                name.setText(app.name());
                description.setText(Controls.orEmpty(app.description()));
                domains.setText(String.join(", ", app.domains()));
                connectors.setText(String.join(", ", app.connectors()));
                routes.setText(app.routes() == null ? "" : String.join(", ", app.routes()));
            }
        });
        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(6);
        form.addRow(0, new Label("Name"), name);
        form.addRow(1, new Label("Description"), description);
        form.addRow(2, new Label("Domains"), domains);
        form.addRow(3, new Label("Connectors"), connectors);
        form.addRow(4, new Label("Routes"), routes);

        Button create = new Button("Create app");
        create.setId("createApp");
        create.setOnAction(event -> model.create(AppsViewModel.request(name.getText(), description.getText(),
                domains.getText(), connectors.getText(), routes.getText())));
        Button save = new Button("Save selected");
        save.setId("saveApp");
        save.disableProperty().bind(selection.none());
        save.setOnAction(event -> model.update(selection.get(), AppsViewModel.request(
                name.getText(), description.getText(), domains.getText(), connectors.getText(), routes.getText())));
        Button delete = new Button("Delete selected");
        delete.setId("deleteApp");
        delete.getStyleClass().add("danger");
        delete.disableProperty().bind(selection.none());
        delete.setOnAction(event -> {
            AppView app = selection.get();
            Controls.confirm(root, "Delete the app " + app.name() + "? Its domains stop going through its connectors.",
                    () -> model.delete(app));
        });

        root.getChildren().addAll(heading("Apps (app connectors)"), table, heading("An app"), form,
                row(create, save, delete));
        root.setPadding(new Insets(8));
    }

    @Override
    public String title() {
        return "Apps";
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
