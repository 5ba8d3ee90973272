/**
 * The JavaFX admin app: a client of a server's /api/v1, local (through the local credential) or remote (with an API
 * key). It knows only the api module, never the server's internals (docs/desktop.md).
 */
// RichTextFX (the policy editor) and the libraries under it are automatic modules: they name no module of their own.
@SuppressWarnings("requires-automatic")
module io.meshcontrol.gui {
    requires io.meshcontrol.api;
    requires transitive javafx.controls;
    requires org.fxmisc.richtext;
    requires org.fxmisc.flowless;
    requires reactfx;

    // svc admin starts the app (AdminApp.open); JavaFX instantiates AdminApp.
    exports io.meshcontrol.gui;
    // The saved profiles (desktop.json) are records that Jackson reads and writes.
    opens io.meshcontrol.gui.connect to tools.jackson.databind;
}
