package io.meshcontrol.gui.access;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Change;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.screen.Selection;
import java.util.Map;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.VBox;

/** Just-in-time access: the requests with their state; approve (Ctrl+Shift+A), deny, revoke; ask for a group. */
public final class AccessRequestsScreen implements Screen {

    private final AccessRequestsViewModel model;
    private final VBox root = new VBox(10);
    private final TableView<AccessRequestView> table;
    private final Selection<AccessRequestView> selection;

    public AccessRequestsScreen(Connection connection, Background background) {
        model = new AccessRequestsViewModel(connection.client(), background);
        table = Controls.table("accessRequests", model.requests(),
                column("User", AccessRequestView::user),
                column("Group", AccessRequestView::group),
                column("For", request -> Controls.orEmpty(request.duration())),
                column("State", AccessRequestView::state),
                column("Reason", request -> Controls.orEmpty(request.reason())),
                column("Asked", request -> Controls.time(request.createdAt())),
                column("Decided by", request -> Controls.orEmpty(request.decidedBy())),
                column("Until", request -> Controls.time(request.expiresAt())));
        table.setPlaceholder(new Label("No access requests"));
        selection = Selection.of(table, AccessRequestView::id);
        table.setPrefHeight(260);

        Button approve = new Button("Approve");
        approve.setId("approveRequest");
        approve.setOnAction(event -> approveSelected());
        Button deny = new Button("Deny");
        deny.setId("denyRequest");
        deny.setOnAction(event -> decideSelected("deny"));
        Button revoke = new Button("Revoke");
        revoke.setId("revokeRequest");
        revoke.getStyleClass().add("danger");
        revoke.setOnAction(event -> {
            AccessRequestView request = selection.get();
            Controls.confirm(root, "Revoke the access of " + request.user() + " to " + request.group() + "?",
                    () -> model.decide(request, "revoke"));
        });
        for (Button button : new Button[] {approve, deny, revoke}) {
            button.disableProperty().bind(selection.none());
        }

        TextField group = Controls.field("requestGroup", "group:oncall");
        io.meshcontrol.gui.screen.DurationField durationInput = new io.meshcontrol.gui.screen.DurationField(
                "requestDuration", "for how long (8h, 2 days)", "1h", "8h", "1d", "7d");
        TextField duration = durationInput.field();
        TextField reason = Controls.field("requestReason", "why");
        TextField user = Controls.field("requestUser", "for another user (optional)");
        Button ask = new Button("Ask");
        ask.setId("askAccess");
        ask.setOnAction(event -> model.ask(user.getText(), group.getText(), reason.getText(), duration.getText()));

        root.getChildren().addAll(heading("Access requests (approve: Ctrl+Shift+A)"), table, row(approve, deny, revoke),
                heading("Ask to join a group for a while"), row(group, durationInput.node(), reason, user, ask));
        root.setPadding(new Insets(8));
    }

    private void approveSelected() {
        AccessRequestView request = selection.get();
        if (request != null) {
            Controls.confirm(root, "Let " + request.user() + " into " + request.group() + " for "
                    + Controls.orEmpty(request.duration()) + "?", () -> model.decide(request, "approve"));
        }
    }

    private void decideSelected(String decision) {
        AccessRequestView request = selection.get();
        if (request != null) {
            model.decide(request, decision);
        }
    }

    @Override
    public String title() {
        return "Access requests";
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
    public void changed(Change change) {
        if (!change.all() && change.area("accessrequest")) {
            model.reread();
        }
    }

    @Override
    public void show(String id) {
        Controls.selectWhenListed(table, request -> request.id().equals(id));
    }

    @Override
    public Map<KeyCombination, Runnable> shortcuts() {
        return Map.of(KeyCombination.keyCombination("Shortcut+Shift+A"), this::approveSelected);
    }
}
