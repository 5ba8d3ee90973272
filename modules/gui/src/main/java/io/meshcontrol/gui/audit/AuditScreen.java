package io.meshcontrol.gui.audit;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The audit log: filter (Enter applies; Ctrl+F goes to it), a page at a time (Older, Newer). */
public final class AuditScreen implements Screen {

    private final AuditViewModel model;
    private final VBox root = new VBox(10);
    private final TextField actor;

    public AuditScreen(Connection connection, Background background) {
        model = new AuditViewModel(connection.client(), background);
        actor = Controls.field("auditActor", "actor (Ctrl+F)");
        actor.textProperty().bindBidirectional(model.actor());
        TextField action = Controls.field("auditAction", "action (node.approve)");
        action.textProperty().bindBidirectional(model.action());
        TextField target = Controls.field("auditTarget", "target");
        target.textProperty().bindBidirectional(model.target());
        TextField since = Controls.field("auditSince", "since (24h or 2026-01-05T00:00:00Z)");
        since.textProperty().bindBidirectional(model.since());
        since.setPrefColumnCount(18);
        Button apply = new Button("Filter");
        apply.setId("auditFilter");
        apply.setOnAction(event -> model.refresh());
        for (TextField field : new TextField[] {actor, action, target, since}) {
            field.setOnAction(event -> model.refresh());
        }

        TableView<AuditEntryView> entries = Controls.table("auditEntries", model.entries(),
                column("Time", entry -> Controls.time(entry.time())),
                column("Actor", AuditEntryView::actor),
                column("Source", entry -> Controls.orEmpty(entry.source())),
                column("Action", AuditEntryView::action),
                column("Target", entry -> Controls.orEmpty(entry.target())),
                column("Details", entry -> entry.details() == null ? "" : entry.details().entrySet().stream()
                        .map(detail -> detail.getKey() + "=" + detail.getValue()).collect(Collectors.joining(" "))));
        entries.setPlaceholder(new Label("Nothing in the audit log matches"));
        VBox.setVgrow(entries, Priority.ALWAYS);

        Button newer = new Button("◀ Newer");
        newer.setId("auditNewer");
        newer.disableProperty().bind(model.hasNewer().not());
        newer.setOnAction(event -> model.newer());
        Button older = new Button("Older ▶");
        older.setId("auditOlder");
        older.disableProperty().bind(model.hasOlder().not());
        older.setOnAction(event -> model.older());
        Label page = new Label();
        page.setId("auditPage");
        page.textProperty().bind(model.page());

        root.getChildren().addAll(row(actor, action, target, since, apply), entries, row(newer, page, older));
        root.setPadding(new Insets(8));
    }

    @Override
    public String title() {
        return "Audit log";
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
    public Map<KeyCombination, Runnable> shortcuts() {
        return Map.of(KeyCombination.keyCombination("Shortcut+F"), actor::requestFocus);
    }
}
