/** The svc command. */
module io.meshcontrol.cli {
    requires io.meshcontrol.server;
    requires io.meshcontrol.core;
    // svc configtest reads derp.paths files with the relay's own reader.
    requires io.meshcontrol.relay;
    requires io.meshcontrol.api;
    // svc admin opens the desktop app.
    requires io.meshcontrol.gui;
    requires info.picocli;
    requires tools.jackson.databind;
    requires com.fasterxml.jackson.annotation;
    requires tools.jackson.dataformat.yaml;
    requires java.logging;
    // sun.misc.Signal, for SIGHUP (reload the policy file)
    requires jdk.unsupported;

    // picocli reads and sets the annotated fields of the commands.
    opens io.meshcontrol.cli to info.picocli;
}
