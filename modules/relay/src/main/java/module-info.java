/** DERP relay server and STUN. */
module io.meshcontrol.relay {
    requires transitive io.meshcontrol.core;
    requires tools.jackson.core;
    requires tools.jackson.databind;
    requires tools.jackson.dataformat.yaml;
    requires java.net.http;

    exports io.meshcontrol.relay.derp;
    exports io.meshcontrol.relay.latency;
    exports io.meshcontrol.relay.map;
    exports io.meshcontrol.relay.stun;
}
