package io.meshcontrol.gui.connect;

import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Failures;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The connection screen: the saved servers, the fields of the one being edited, connecting in the background (which
 * the user can cancel), and the message that says why a connection failed.
 */
public final class ConnectionViewModel {

    private final DesktopSettings settings;
    private final Connector connector;
    private final Background background;
    private final Consumer<Connection> connected;

    private final ObservableList<Profile> profiles = FXCollections.observableArrayList();
    private final ObjectProperty<Profile> selected = new SimpleObjectProperty<>();
    private final BooleanProperty local = new SimpleBooleanProperty(true);
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty address = new SimpleStringProperty("");
    private final StringProperty apiKey = new SimpleStringProperty("");
    private final BooleanProperty insecure = new SimpleBooleanProperty(false);
    private final BooleanProperty connecting = new SimpleBooleanProperty(false);
    private final StringProperty message = new SimpleStringProperty("");
    private Task<Connection> attempt;

    public ConnectionViewModel(Connector connector, DesktopSettings settings, Background background,
            Consumer<Connection> connected) {
        this.settings = settings;
        this.connector = connector;
        this.background = background;
        this.connected = connected;
        profiles.setAll(settings.profiles());
        selected.addListener((observable, was, profile) -> edit(profile));
        String last = settings.stored().lastProfile();
        selected.set(profiles.stream().filter(profile -> profile.name().equals(last)).findFirst()
                .orElse(profiles.getFirst()));
    }

    /** Fills the fields from a saved server (its key from its file). */
    private void edit(Profile profile) {
        if (profile == null) {
            return;
        }
        local.set(profile.isLocal());
        name.set(profile.isLocal() ? "" : profile.name());
        address.set(profile.isLocal() ? "" : profile.url().toString());
        apiKey.set(profile.isLocal() ? "" : settings.apiKey(profile.name()).orElse(""));
        insecure.set(profile.insecure());
        message.set("");
    }

    /** Empty fields for a server not saved yet. */
    public void newRemote() {
        selected.set(null);
        local.set(false);
        name.set("");
        address.set("");
        apiKey.set("");
        insecure.set(false);
        message.set("");
    }

    public void connect() {
        if (connecting.get()) {
            return;
        }
        Profile profile;
        try {
            profile = local.get() ? Profile.local() : new Profile(remoteName(), Profile.address(address.get()),
                    insecure.get());
        } catch (Failures.InvalidInputException e) {
            message.set(e.getMessage());
            return;
        }
        String key = apiKey.get();
        message.set("");
        connecting.set(true);
        attempt = background.run("Connecting to " + profile, () -> connector.open(profile, key), connection -> {
            connecting.set(false);
            try {
                settings.remember(profile, key);
            } catch (java.io.UncheckedIOException e) {
                // Connected all the same; the server is not saved for next time, which the status bar says.
                background.tell("Not saved for next time: " + e.getMessage());
            }
            connected.accept(connection);
        }, failure -> {
            connecting.set(false);
            message.set(Failures.describe(failure));
        });
        attempt.setOnCancelled(event -> {
            connecting.set(false);
            message.set("Connecting was cancelled.");
        });
    }

    public void cancel() {
        if (attempt != null) {
            attempt.cancel(true);
        }
    }

    /** Removes the selected remote server and its key. */
    public void forgetSelected() {
        Profile profile = selected.get();
        if (profile != null && !profile.isLocal()) {
            settings.forget(profile.name());
            profiles.setAll(settings.profiles());
            selected.set(profiles.getFirst());
        }
    }

    private String remoteName() {
        String typed = name.get() == null ? "" : name.get().strip();
        if (typed.equals(Profile.LOCAL)) {
            throw new Failures.InvalidInputException("\"" + Profile.LOCAL + "\" is the server on this machine: choose"
                    + " another name");
        }
        return typed.isEmpty() ? Profile.address(address.get()).getHost() : typed;
    }

    public ObservableList<Profile> profiles() {
        return profiles;
    }

    public ObjectProperty<Profile> selected() {
        return selected;
    }

    public BooleanProperty local() {
        return local;
    }

    public StringProperty name() {
        return name;
    }

    public StringProperty address() {
        return address;
    }

    public StringProperty apiKey() {
        return apiKey;
    }

    public BooleanProperty insecure() {
        return insecure;
    }

    public BooleanProperty connecting() {
        return connecting;
    }

    public StringProperty message() {
        return message;
    }
}
