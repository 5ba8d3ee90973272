package io.meshcontrol.gui.oauth;

import io.meshcontrol.api.IssuedOAuthClient;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.OAuthClientRequest;
import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.SecretPanel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * OAuth clients (a client id and secret that trade for short-lived tokens with the scopes given) and federated
 * identities (a workload's token from a trusted issuer, matching a subject and claim rules): create (a client's
 * secret shown once), change in place, revoke (its secret and tokens stop at once). docs/identity.md.
 */
public final class OAuthClientsViewModel {

    private final MeshClient client;
    private final Background background;
    private final ObservableList<OAuthClientView> clients = FXCollections.observableArrayList();
    private final SecretPanel secret = new SecretPanel("oauthSecret");

    /**
     * What the form holds, as typed: scopes and tags separated by commas or spaces, claim rules one
     * {@code name=pattern} a line. The trust fields matter for federated identities only.
     */
    public record Form(boolean federated, String description, String scopes, String tags, String issuer,
            String audience, String subject, String claimRules) {
    }

    public OAuthClientsViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading the OAuth clients", client::oauthClients, clients::setAll);
    }

    public void create(Form form) {
        String what = form.federated() ? "a federated identity" : "an OAuth client";
        OAuthClientRequest request = request(form, form.federated() ? "federated" : "client");
        background.run("Creating " + what, () -> client.createOAuthClient(request), (IssuedOAuthClient issued) -> {
            String id = issued.oauthClient().id();
            if (issued.secret() != null && !issued.secret().isEmpty()) {
                secret.show(id, issued.secret(), "OAuth client " + id + ": its client id is " + id
                        + "; copy the secret now, it is not shown again.");
            }
            refresh();
            background.tell("Created " + what + " " + id);
        });
    }

    /** Sends the whole form as the change: the server keeps the id (and a client's secret), changes the rest. */
    public void save(OAuthClientView current, Form form) {
        boolean federated = "federated".equals(current.keyType());
        OAuthClientRequest change = request(new Form(federated, form.description(), form.scopes(), form.tags(),
                form.issuer(), form.audience(), form.subject(), form.claimRules()), null);
        background.run("Saving " + current.id(), () -> client.updateOAuthClient(current.id(), change), saved -> {
            refresh();
            background.tell("Saved " + saved.id());
        });
    }

    private static OAuthClientRequest request(Form form, String keyType) {
        String description = form.description() == null ? "" : form.description().strip();
        if (!form.federated()) {
            return new OAuthClientRequest(keyType, Controls.words(form.scopes()), Controls.words(form.tags()),
                    description, null, null, null, null);
        }
        // A blank audience is left out: the server then generates one on create and keeps it on a change.
        return new OAuthClientRequest(keyType, Controls.words(form.scopes()), Controls.words(form.tags()),
                description, Controls.blankToNull(form.issuer()), Controls.blankToNull(form.audience()),
                Controls.blankToNull(form.subject()), claimRules(form.claimRules()));
    }

    /** {@code name=pattern} lines to the map the server takes; a line without {@code =} is a name with no pattern. */
    static Map<String, String> claimRules(String text) {
        Map<String, String> rules = new LinkedHashMap<>();
        for (String line : (text == null ? "" : text).split("\n")) {
            String rule = line.strip();
            if (!rule.isEmpty()) {
                int equals = rule.indexOf('=');
                rules.put(equals < 0 ? rule : rule.substring(0, equals).strip(),
                        equals < 0 ? "" : rule.substring(equals + 1).strip());
            }
        }
        return rules;
    }

    static String claimRuleText(Map<String, String> rules) {
        return rules == null ? "" : rules.entrySet().stream().map(rule -> rule.getKey() + "=" + rule.getValue())
                .collect(Collectors.joining("\n"));
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
