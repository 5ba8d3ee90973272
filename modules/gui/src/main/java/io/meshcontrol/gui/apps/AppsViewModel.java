package io.meshcontrol.gui.apps;

import io.meshcontrol.api.AppRequest;
import io.meshcontrol.api.AppView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** Apps (app connectors): domains routed through connector machines; create, change, delete. */
public final class AppsViewModel {

    private final MeshClient client;
    private final Background background;
    private final ObservableList<AppView> apps = FXCollections.observableArrayList();

    public AppsViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading the apps", client::apps, apps::setAll);
    }

    /** Lists as typed: separated by commas or spaces. */
    public static AppRequest request(String name, String description, String domains, String connectors,
            String routes) {
        return new AppRequest(Controls.blankToNull(name), Controls.blankToNull(description), Controls.words(domains),
                Controls.words(connectors), Controls.words(routes));
    }

    public void create(AppRequest request) {
        background.run("Creating the app " + request.name(), () -> client.createApp(request), created -> {
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Created the app " + created.name());
        });
    }

    public void update(AppView app, AppRequest request) {
        background.run("Saving the app " + app.name(), () -> client.updateApp(app.id(), request), saved -> {
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Saved the app " + saved.name());
        });
    }

    public void delete(AppView app) {
        background.run("Deleting the app " + app.name(), () -> {
            client.deleteApp(app.id());
            return app;
        }, deleted -> {
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Deleted the app " + deleted.name());
        });
    }

    public ObservableList<AppView> apps() {
        return apps;
    }
}
