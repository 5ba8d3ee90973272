package io.meshcontrol.gui.oauth;

import io.meshcontrol.api.IssuedOAuthClient;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.OAuthClientRequest;
import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.SecretPanel;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * OAuth clients (a client id and secret that trade for short-lived tokens with the scopes given): create (the secret
 * shown once), revoke (its secret and tokens stop at once).
 */
public final class OAuthClientsViewModel {

    private final MeshClient client;
    private final Background background;
    private final ObservableList<OAuthClientView> clients = FXCollections.observableArrayList();
    private final SecretPanel secret = new SecretPanel("oauthSecret");

    public OAuthClientsViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading the OAuth clients", client::oauthClients, clients::setAll);
    }

    /** @param scopes and tags as typed, separated by commas or spaces */
    public void create(String description, String scopes, String tags) {
        OAuthClientRequest request = new OAuthClientRequest("client", Controls.words(scopes),
                Controls.words(tags).isEmpty() ? null : Controls.words(tags), Controls.blankToNull(description), null,
                null, null, null);
        background.run("Creating an OAuth client", () -> client.createOAuthClient(request),
                (IssuedOAuthClient issued) -> {
                    secret.show(issued.oauthClient().id(), issued.secret(), "OAuth client " + issued.oauthClient().id()
                            + ": its client id is " + issued.oauthClient().id()
                            + "; copy the secret now, it is not shown again.");
                    refresh();
                });
    }

    public void revoke(OAuthClientView oauthClient) {
        background.run("Revoking the OAuth client " + oauthClient.id(), () -> {
            client.deleteOAuthClient(oauthClient.id());
            return oauthClient;
        }, revoked -> {
            secret.forget(revoked.id());
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Revoked the OAuth client " + revoked.id());
        });
    }

    public ObservableList<OAuthClientView> clients() {
        return clients;
    }

    public SecretPanel secret() {
        return secret;
    }
}
