package io.meshcontrol.gui.machines;

import io.meshcontrol.api.AuthRegisterRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PendingRegistrationView;
import io.meshcontrol.api.UserView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * "Register a machine": completes a waiting interactive login ({@code tailscale up} without a key) from the app. The
 * admin pastes the {@code /register/<id>} link the machine printed (or the id), sees the machine
 * ({@code GET /api/v1/auth/register/{authId}}), picks its user or tags and approves it, or refuses it.
 */
public final class RegisterDialog {

    private final MeshClient client;
    private final Background background;
    private final Dialog<Void> dialog = new Dialog<>();
    private final TextField link = Controls.field("registerLink", "https://…/register/<id>, or the id");
    private final Label details = new Label("Paste the link the machine printed, then Look up.");
    private final ComboBox<String> user = new ComboBox<>();
    private final TextField tags = Controls.field("registerTags", "or tags: tag:server (the machine is theirs)");
    private final CheckBox approve = new CheckBox("Approve it now (device approval is on)");
    private final Label outcome = new Label();
    private final VBox choice;
    private PendingRegistrationView pending;

    public RegisterDialog(Node owner, MeshClient client, Background background) {
        this.client = client;
        this.background = background;
        dialog.setTitle("Register a machine");
        dialog.initOwner(owner.getScene().getWindow());
        dialog.initModality(javafx.stage.Modality.NONE);
        details.setId("registerDetails");
        details.setWrapText(true);
        user.setId("registerUser");
        user.setPromptText("user");
        approve.setId("registerApprove");
        approve.setSelected(true);
        outcome.setId("registerOutcome");
        outcome.setWrapText(true);
        Button lookUp = new Button("Look up");
        lookUp.setId("registerLookUp");
        lookUp.setDefaultButton(true);
        lookUp.setOnAction(event -> lookUp());
        link.setOnAction(event -> lookUp());
        link.setPrefColumnCount(36);
        Button register = new Button("Register");
        register.setId("registerConfirm");
        register.setOnAction(event -> register());
        Button refuse = new Button("Refuse");
        refuse.setId("registerRefuse");
        refuse.getStyleClass().add("danger");
        refuse.setOnAction(event -> refuse());
        choice = new VBox(8, new HBox(8, new Label("Owner"), user, tags), approve, new HBox(8, register, refuse));
        choice.setDisable(true);
        VBox content = new VBox(10, new HBox(8, link, lookUp), details, choice, outcome);
        content.setPadding(new Insets(12));
        content.setPrefWidth(560);
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
    }

    /** The login's id from what was pasted: a {@code /register/<id>} link (any server address) or the id alone. */
    public static String authId(String pasted) {
        String text = pasted == null ? "" : pasted.strip();
        int at = text.lastIndexOf("/register/");
        if (at >= 0) {
            text = text.substring(at + "/register/".length());
        }
        int end = text.indexOf('?');
        text = end >= 0 ? text.substring(0, end) : text;
        end = text.indexOf('#');
        text = end >= 0 ? text.substring(0, end) : text;
        return text.replaceAll("/+$", "");
    }

    public void show() {
        background.quietly(client::users, users -> {
            user.setItems(FXCollections.observableArrayList(users.stream().map(UserView::name).toList()));
            if (user.getValue() == null && !users.isEmpty()) {
                user.setValue(users.getFirst().name());
            }
        }, failure -> { });
        dialog.show();
        link.requestFocus();
    }

    private void lookUp() {
        String id = authId(link.getText());
        if (id.isEmpty()) {
            outcome.setText("Paste the link the machine printed (…/register/<id>)");
            return;
        }
        outcome.setText("");
        background.run("Looking up the waiting machine", () -> client.pendingRegistration(id), found -> {
            pending = found;
            details.setText(describe(found));
            approve.setVisible(found.devicesApprovalOn());
            approve.setManaged(found.devicesApprovalOn());
            if (found.requestedTags() != null && !found.requestedTags().isEmpty()) {
                tags.setText(String.join(", ", found.requestedTags()));
            }
            choice.setDisable(false);
        }, failure -> {
            pending = null;
            choice.setDisable(true);
            details.setText("");
            outcome.setText("No machine waits with that link: " + io.meshcontrol.gui.screen.Failures.describe(failure)
                    + " (links last " + "15 minutes; run tailscale up again for a new one)");
        });
    }

    static String describe(PendingRegistrationView machine) {
        StringBuilder text = new StringBuilder("Machine " + machine.hostname());
        if (machine.os() != null && !machine.os().isEmpty()) {
            text.append(", ").append(machine.os()).append(machine.osVersion() == null || machine.osVersion().isEmpty()
                    ? "" : " " + machine.osVersion());
        }
        if (machine.clientVersion() != null && !machine.clientVersion().isEmpty()) {
            text.append(", client ").append(machine.clientVersion());
        }
        text.append(machine.ephemeral() ? ", ephemeral" : "").append("\nNode key ").append(machine.nodeKey());
        if (machine.currentUser() != null) {
            text.append("\nAlready a machine of ").append(machine.currentUser()).append(": this is a new login");
        } else if (machine.currentTags() != null && !machine.currentTags().isEmpty()) {
            text.append("\nAlready a machine of ").append(String.join(" ", machine.currentTags()));
        }
        if (machine.requestedTags() != null && !machine.requestedTags().isEmpty()) {
            text.append("\nAsks for tags ").append(String.join(", ", machine.requestedTags()));
        }
        if (machine.expiresAt() != null) {
            text.append("\nThe link lapses at ").append(Controls.time(machine.expiresAt()));
        }
        return text.toString();
    }

    private void register() {
        if (pending == null) {
            return;
        }
        List<String> tagList = Controls.words(tags.getText());
        String owner = tagList.isEmpty() ? user.getValue() : null;
        if (owner == null && tagList.isEmpty()) {
            outcome.setText("Pick the machine's user, or give it tags");
            return;
        }
        AuthRegisterRequest request = new AuthRegisterRequest(owner, pending.authId(),
                tagList.isEmpty() ? null : tagList, pending.devicesApprovalOn() ? approve.isSelected() : null);
        background.run("Registering " + pending.hostname(), () -> client.registerAuth(request), node -> {
            outcome.setText("Registered " + node.name() + (node.authorized() ? "" : ": it waits for approval")
                    + ". The machine's tailscale up finishes now.");
            choice.setDisable(true);
            pending = null;
        }, failure -> outcome.setText("Not registered: " + io.meshcontrol.gui.screen.Failures.describe(failure)));
    }

    private void refuse() {
        if (pending == null) {
            return;
        }
        String name = pending.hostname();
        String id = pending.authId();
        Controls.confirm(dialog.getDialogPane(), "Refuse " + name + "? Its tailscale up ends with the refusal.",
                () -> background.run("Refusing " + name, () -> {
                    client.refuseRegistration(id);
                    return id;
                }, done -> {
                    outcome.setText("Refused " + name);
                    choice.setDisable(true);
                    pending = null;
                }, failure -> outcome.setText("Not refused: " + io.meshcontrol.gui.screen.Failures.describe(failure))));
    }
}
