/** DERP relay server and STUN. */
module io.meshcontrol.relay {
    requires transitive io.meshcontrol.core;
    requires tools.jackson.core;
    requires tools.jackson.databind;
    requires tools.jackson.dataformat.yaml;
    requires java.net.http;
    // The relay's self-signed TLS certificate is built with its ASN.1 classes.
    requires org.bouncycastle.provider;

    exports io.meshcontrol.relay.derp;
    exports io.meshcontrol.relay.latency;
    exports io.meshcontrol.relay.map;
    exports io.meshcontrol.relay.stun;
    exports io.meshcontrol.relay.tls;
}
