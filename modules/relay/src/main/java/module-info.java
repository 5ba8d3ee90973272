/** DERP relay server, STUN, DERP map sources and merging (filled by the relay issue). */
module io.meshcontrol.relay {
    requires io.meshcontrol.core;
}
