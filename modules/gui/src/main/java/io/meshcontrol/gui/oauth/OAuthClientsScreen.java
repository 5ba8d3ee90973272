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
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;

/** OAuth clients and federated identities: list, create a client (secret once), revoke. */
public final class OAuthClientsScreen implements Screen {

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

        TextField description = Controls.field("oauthDescription", "description");
        TextField scopes = Controls.field("oauthScopes", "scopes (devices:core auth_keys)");
        scopes.setPrefColumnCount(20);
        TextField tags = Controls.field("oauthTags", "tags for keys it makes (tag:ci)");
        Button create = new Button("Create OAuth client");
        create.setId("createOAuthClient");
        create.setOnAction(event -> model.create(description.getText(), scopes.getText(), tags.getText()));
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
                row(revoke), heading("New OAuth client"), row(description, scopes, tags, create));
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
