/** The svc command. */
module io.meshcontrol.cli {
    requires io.meshcontrol.server;
    requires io.meshcontrol.api;
    requires info.picocli;
}
