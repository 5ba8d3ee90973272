package io.meshcontrol.gui.oauth;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.screen.Selection;
import java.util.function.Supplier;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;

/**
 * OAuth clients and federated identities: list; create either kind (a client's secret shown once); change the
 * selected one (description, scopes, tags, and an identity's issuer, audience, subject and claim rules); revoke.
 */
public final class OAuthClientsScreen implements Screen {

    private static final String CLIENT = "OAuth client";
    private static final String FEDERATED = "federated identity";

    private final OAuthClientsViewModel model;
    private final VBox root = new VBox(10);

    public OAuthClientsScreen(Connection connection, Background background) {
        model = new OAuthClientsViewModel(connection.client(), background);
        TableView<OAuthClientView> table = Controls.table("oauthClients", model.clients(),
                column("Client id", OAuthClientView::id),
                column("Kind", client -> "federated".equals(client.keyType()) ? "federated identity" : "OAuth client"),
                column("Scopes", client -> String.join(" ", client.scopes())),
                column("Tags", client -> client.tags() == null ? "" : String.join(" ", client.tags())),
                column("Description", client -> Controls.orEmpty(client.description())),
                column("Issuer / subject", client -> client.issuer() == null ? ""
                        : client.issuer() + " " + Controls.orEmpty(client.subject())),
                column("Created", client -> Controls.time(client.createdAt())),
                column("State", client -> client.revoked() ? "revoked" : "active"));
        table.setPlaceholder(new Label("No OAuth clients or federated identities"));
        Selection<OAuthClientView> selection = Selection.of(table, OAuthClientView::id);
        table.setPrefHeight(260);

        ComboBox<String> kind = new ComboBox<>(FXCollections.observableArrayList(CLIENT, FEDERATED));
        kind.setId("oauthKind");
        kind.getSelectionModel().selectFirst();
        TextField description = Controls.field("oauthDescription", "description");
        TextField scopes = Controls.field("oauthScopes", "scopes (devices:core auth_keys)");
        scopes.setPrefColumnCount(20);
        TextField tags = Controls.field("oauthTags", "tags for keys it makes (tag:ci)");
        TextField issuer = Controls.field("oauthIssuer", "issuer URL (https://token.actions.githubusercontent.com)");
        issuer.setPrefColumnCount(28);
        TextField audience = Controls.field("oauthAudience", "audience (optional)");
        TextField subject = Controls.field("oauthSubject", "subject, * matches any text (repo:example/app:*)");
        subject.setPrefColumnCount(24);
        TextArea claims = new TextArea();
        claims.setId("oauthClaims");
        claims.setPromptText("claim rules, one name=pattern a line (repository_owner=example)");
        claims.setPrefRowCount(3);
        claims.setPrefColumnCount(40);
        VBox trust = new VBox(6, row(issuer, audience, subject), claims);
        // The trust fields belong to federated identities only: hidden (and taking no room) for a plain client.
        trust.visibleProperty().bind(kind.valueProperty().isEqualTo(FEDERATED));
        trust.managedProperty().bind(trust.visibleProperty());

        Supplier<OAuthClientsViewModel.Form> form = () -> new OAuthClientsViewModel.Form(
                FEDERATED.equals(kind.getValue()), description.getText(), scopes.getText(), tags.getText(),
                issuer.getText(), audience.getText(), subject.getText(), claims.getText());
        Button create = new Button();
        create.setId("createOAuthClient");
        create.textProperty().bind(Bindings.when(kind.valueProperty().isEqualTo(FEDERATED))
                .then("Create federated identity").otherwise("Create OAuth client"));
        create.setOnAction(event -> model.create(form.get()));
        Button save = new Button("Save changes");
        save.setId("saveOAuthClient");
        save.disableProperty().bind(selection.none());
        save.setOnAction(event -> model.save(selection.get(), form.get()));
        // Picking a row fills the form with it, ready to change and save (its kind cannot change). A live refresh
        // hands back the same row anew: what is being typed then stays.
        selection.item().addListener((observable, was, picked) -> {
            if (picked != null && (was == null || !was.id().equals(picked.id()))) {
                kind.setValue("federated".equals(picked.keyType()) ? FEDERATED : CLIENT);
                description.setText(Controls.orEmpty(picked.description()));
                scopes.setText(String.join(" ", picked.scopes()));
                tags.setText(picked.tags() == null ? "" : String.join(" ", picked.tags()));
                issuer.setText(Controls.orEmpty(picked.issuer()));
                audience.setText(Controls.orEmpty(picked.audience()));
                subject.setText(Controls.orEmpty(picked.subject()));
                claims.setText(OAuthClientsViewModel.claimRuleText(picked.customClaimRules()));
            }
        });
        Button revoke = new Button("Revoke selected");
        revoke.setId("revokeOAuthClient");
        revoke.getStyleClass().add("danger");
        revoke.disableProperty().bind(selection.none());
        revoke.setOnAction(event -> {
            OAuthClientView client = selection.get();
            Controls.confirm(root, "Revoke " + client.id() + "? Its secret and every token it got stop at once.",
                    () -> model.revoke(client));
        });

        root.getChildren().addAll(model.secret().root(), heading("OAuth clients and federated identities"), table,
                row(revoke), heading("New, or the selected one to change"), row(kind, description, scopes, tags),
                trust, row(create, save));
        root.setPadding(new Insets(8));
    }

    @Override
    public String title() {
        return "OAuth";
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
