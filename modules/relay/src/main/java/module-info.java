/** DERP relay server and STUN. */
module io.meshcontrol.relay {
    requires transitive io.meshcontrol.core;

    exports io.meshcontrol.relay.derp;
    exports io.meshcontrol.relay.map;
    exports io.meshcontrol.relay.stun;
}
