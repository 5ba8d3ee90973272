/** The product's rules: model, keys, configuration, storage, policy, network map, state, events. No HTTP here. */
module io.meshcontrol.core {
    requires transitive tools.jackson.databind;
    requires transitive com.fasterxml.jackson.annotation;
    requires tools.jackson.dataformat.yaml;
    requires transitive java.sql;
    requires org.jdbi.v3.core;
    requires org.xerial.sqlitejdbc;
    requires flyway.core;
    requires org.bouncycastle.provider;
    requires com.github.luben.zstd_jni;

    exports io.meshcontrol.core;
    exports io.meshcontrol.core.address;
    exports io.meshcontrol.core.auth;
    exports io.meshcontrol.core.config;
    exports io.meshcontrol.core.crypto;
    exports io.meshcontrol.core.event;
    exports io.meshcontrol.core.key;
    exports io.meshcontrol.core.model;
    exports io.meshcontrol.core.netmap;
    exports io.meshcontrol.core.policy;
    exports io.meshcontrol.core.routes;
    exports io.meshcontrol.core.state;
    exports io.meshcontrol.core.wire;
    // Jackson instantiates the wire package's own (package-private) value filter and serializers
    opens io.meshcontrol.core.wire to tools.jackson.databind;
}
