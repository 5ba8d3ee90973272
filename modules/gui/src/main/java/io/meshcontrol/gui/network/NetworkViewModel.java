package io.meshcontrol.gui.network;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import io.meshcontrol.gui.screen.Background;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The network screen: users and the runtime settings (approvals, key duration). */
public final class NetworkViewModel {

    private record Everything(List<UserView> users, SettingsView settings) {
    }

    private final MeshClient client;
    private final Background background;
    private final ObservableList<UserView> users = FXCollections.observableArrayList();
    private final BooleanProperty devicesApproval = new SimpleBooleanProperty();
    private final BooleanProperty usersApproval = new SimpleBooleanProperty();
    private final StringProperty keyDurationDays = new SimpleStringProperty("0");

    public NetworkViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading users and settings", () -> new Everything(client.users(), client.settings()), this::show);
    }

    private void show(Everything everything) {
        users.setAll(everything.users());
        showSettings(everything.settings());
    }

    private void showSettings(SettingsView settings) {
        devicesApproval.set(Boolean.TRUE.equals(settings.devicesApprovalOn()));
        usersApproval.set(Boolean.TRUE.equals(settings.usersApprovalOn()));
        keyDurationDays.set(settings.devicesKeyDurationDays() == null ? "0"
                : settings.devicesKeyDurationDays().toString());
    }

    public void saveSettings() {
        // The server reads 0 as "node.expiry of the configuration"; an empty field means the same.
        Integer days;
        try {
            days = io.meshcontrol.gui.screen.DurationField.days(keyDurationDays.get()); // 90, 90d, 2w
        } catch (IllegalArgumentException | ArithmeticException e) {
            background.tell("Machine keys expire after: " + e.getMessage());
            return;
        }
        SettingsView change = new SettingsView(devicesApproval.get(), usersApproval.get(), days);
        background.run("Saving the settings", () -> client.updateSettings(change), saved -> {
            showSettings(saved);
            background.tell("Settings saved");
        });
    }

    public void createUser(String name) {
        background.run("Creating user " + name, () -> client.createUser(new UserRequest(name.strip(), null, null, null)),
                created -> refresh());
    }

    public void deleteUser(UserView user) {
        background.run("Deleting user " + user.name(), () -> {
            client.deleteUser(user.id());
            return user;
        }, deleted -> refresh());
    }

    public void approveUser(UserView user) {
        background.run("Approving user " + user.name(), () -> client.approveUser(user.id()), approved -> refresh());
    }

    public ObservableList<UserView> users() {
        return users;
    }

    public BooleanProperty devicesApproval() {
        return devicesApproval;
    }

    public BooleanProperty usersApproval() {
        return usersApproval;
    }

    public StringProperty keyDurationDays() {
        return keyDurationDays;
    }
}
