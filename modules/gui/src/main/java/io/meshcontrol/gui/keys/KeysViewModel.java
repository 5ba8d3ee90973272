package io.meshcontrol.gui.keys;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.HumanDuration;
import io.meshcontrol.api.IssuedApiKey;
import io.meshcontrol.api.IssuedPreAuthKey;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NewPreAuthKeyDefaults;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.api.UserView;
import io.meshcontrol.gui.screen.Background;
import java.util.Arrays;
import java.util.List;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The keys screen: API keys and pre-auth keys, creating them (the secret is shown this once, with the command that
 * joins a machine for a pre-auth key), expiring and deleting them.
 */
public final class KeysViewModel {

    /** Lists read together, in one background call. */
    private record Lists(List<ApiKeyView> apiKeys, List<PreAuthKeyView> preAuthKeys, List<UserView> users) {
    }

    private final MeshClient client;
    private final Background background;
    private final String serverUrl;
    private final ObservableList<ApiKeyView> apiKeys = FXCollections.observableArrayList();
    private final ObservableList<PreAuthKeyView> preAuthKeys = FXCollections.observableArrayList();
    private final ObservableList<String> users = FXCollections.observableArrayList();
    private final StringProperty secret = new SimpleStringProperty("");
    private final StringProperty secretNote = new SimpleStringProperty("");
    private final StringProperty joinCommand = new SimpleStringProperty("");
    // The key whose secret is shown: expiring or revoking it closes the panel.
    private String secretOf = "";

    /** The user picker's first choice: a key of no user, whose machines join as its tags. */
    public static final String NO_USER = "(no user: tags only)";

    public KeysViewModel(MeshClient client, Background background, String serverUrl) {
        this.client = client;
        this.background = background;
        this.serverUrl = serverUrl;
    }

    public void refresh() {
        background.run("Reading the keys", () -> new Lists(client.apiKeys(), client.preAuthKeys(), client.users()),
                lists -> {
                    apiKeys.setAll(lists.apiKeys());
                    preAuthKeys.setAll(lists.preAuthKeys());
                    users.setAll(lists.users().stream().map(UserView::name).toList());
                    users.addFirst(NO_USER);
                });
    }

    /**
     * @param expiration as typed ({@code 30d}, {@code 2w}, {@code 720h}: {@link HumanDuration}); empty for the
     *     server's default (90 days)
     */
    public void createApiKey(String description, String expiration) {
        String lifetime;
        try {
            lifetime = HumanDuration.wire(expiration);
        } catch (IllegalArgumentException e) {
            background.tell("Expires in: " + e.getMessage());
            return;
        }
        ApiKeyRequest request = new ApiKeyRequest(null, null, blankToNull(description), lifetime);
        background.run("Creating an API key", () -> client.createApiKey(request), (IssuedApiKey issued) -> {
            showSecret(issued.secret(), "API key " + issued.apiKey().prefix() + ": copy it now, it is not shown again.",
                    "");
            secretOf = "api:" + issued.apiKey().prefix();
            refresh();
        });
    }

    public void expireApiKey(ApiKeyView key) {
        background.run("Expiring API key " + key.prefix(), () -> client.expireApiKey(key.prefix()), expired -> {
            forgetSecretOf("api:" + key.prefix());
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Expired API key " + key.prefix());
        });
    }

    /**
     * @param tags separated by commas or spaces; a key with tags joins machines as those tags
     * @param expiration as typed ({@link HumanDuration}); empty for the default of a new key
     *     ({@link NewPreAuthKeyDefaults}, as in the console and the CLI)
     */
    public void createPreAuthKey(String user, String tags, boolean reusable, boolean ephemeral, boolean preApproved,
            String expiration) {
        List<String> tagList = Arrays.stream(tags.split("[,\\s]+")).filter(tag -> !tag.isEmpty()).toList();
        String owner = NO_USER.equals(user) ? null : blankToNull(user);
        PreAuthKeyRequest request;
        try {
            request = NewPreAuthKeyDefaults.STANDARD.request(owner, tagList.isEmpty() ? null : tagList,
                    reusable, ephemeral, preApproved, null, expiration);
        } catch (IllegalArgumentException e) {
            background.tell("Expires in: " + e.getMessage());
            return;
        }
        background.run("Creating a pre-auth key", () -> client.createPreAuthKey(request), (IssuedPreAuthKey issued) -> {
            showSecret(issued.secret(), "Pre-auth key " + issued.preAuthKey().prefix()
                    + ": copy it or the command now, it is not shown again.",
                    "tailscale up --login-server " + serverUrl + " --auth-key " + issued.secret());
            secretOf = "preauth:" + issued.preAuthKey().id();
            refresh();
        });
    }

    /** The server keeps a revoked key listed, invalid, until it reaps it (DELETE revokes). */
    public void revokePreAuthKey(PreAuthKeyView key) {
        background.run("Revoking pre-auth key " + key.prefix(), () -> {
            client.deletePreAuthKey(key.id());
            return key;
        }, revoked -> {
            forgetSecretOf("preauth:" + key.id());
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Revoked pre-auth key " + key.prefix());
        });
    }

    /** Expires every key of {@code keys} with one request ({@code POST /api/v1/apikey/bulk}), all or nothing. */
    public void expireApiKeys(List<ApiKeyView> keys) {
        List<String> prefixes = keys.stream().map(ApiKeyView::prefix).toList();
        background.run("Expiring " + keys.size() + " API keys", () -> client.expireApiKeys(prefixes), result -> {
            prefixes.forEach(prefix -> forgetSecretOf("api:" + prefix));
            refresh();
            background.tell("Expired " + result.changed().size() + " API keys");
        });
    }

    /** Revokes every key of {@code keys} with one request ({@code POST /api/v1/preauthkey/bulk}), all or nothing. */
    public void revokePreAuthKeys(List<PreAuthKeyView> keys) {
        List<String> ids = keys.stream().map(PreAuthKeyView::id).toList();
        background.run("Revoking " + keys.size() + " pre-auth keys", () -> client.revokePreAuthKeys(ids), result -> {
            ids.forEach(id -> forgetSecretOf("preauth:" + id));
            refresh();
            background.tell("Revoked " + result.changed().size() + " pre-auth keys");
        });
    }

    private void showSecret(String value, String note, String command) {
        secret.set(value);
        secretNote.set(note);
        joinCommand.set(command);
    }

    /** Forgets the secret shown (Done): it cannot be shown again. */
    public void dismissSecret() {
        showSecret("", "", "");
        secretOf = "";
    }

    private void forgetSecretOf(String key) {
        if (secretOf.equals(key)) {
            dismissSecret();
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    public ObservableList<ApiKeyView> apiKeys() {
        return apiKeys;
    }

    public ObservableList<PreAuthKeyView> preAuthKeys() {
        return preAuthKeys;
    }

    public ObservableList<String> users() {
        return users;
    }

    public StringProperty secret() {
        return secret;
    }

    public StringProperty secretNote() {
        return secretNote;
    }

    public StringProperty joinCommand() {
        return joinCommand;
    }
}
