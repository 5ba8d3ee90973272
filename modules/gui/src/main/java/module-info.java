/**
 * The JavaFX admin app: a client of a server's /api/v1, local (through the local credential) or remote (with an API
 * key). It knows only the api module, never the server's internals (docs/desktop.md).
 */
module io.meshcontrol.gui {
    requires io.meshcontrol.api;
    requires transitive javafx.controls;

    // svc admin starts the app (AdminApp.open); JavaFX instantiates AdminApp.
    exports io.meshcontrol.gui;
    // The saved profiles (desktop.json) are records that Jackson reads and writes.
    opens io.meshcontrol.gui.connect to tools.jackson.databind;
}
