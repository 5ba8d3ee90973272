/** The product's rules: model, keys, configuration, storage, policy, network map, state, events. No HTTP here. */
// org.jdbi.v3.core, flyway.core, flyway.database.postgresql and org.postgresql.jdbc ship no module descriptor:
// automatic modules.
@SuppressWarnings("requires-automatic")
module io.meshcontrol.core {
    requires transitive tools.jackson.core;
    requires transitive tools.jackson.databind;
    requires transitive com.fasterxml.jackson.annotation;
    requires tools.jackson.dataformat.yaml;
    // Tailnet lock: AUMs and node-key signatures are CBOR (CTAP2 canonical form), hashed and signed as encoded.
    requires tools.jackson.dataformat.cbor;
    // LogLevel.julLevel() answers a java.util.logging.Level.
    requires transitive java.logging;
    requires java.sql;
    requires org.jdbi.v3.core;
    requires org.xerial.sqlitejdbc;
    requires flyway.core;
    // PostgreSQL (database.type: postgres): the driver, an automatic module, and Flyway's support for it, found by
    // Flyway as a service (nothing here names its classes).
    requires org.postgresql.jdbc;
    requires flyway.database.postgresql;
    requires org.bouncycastle.provider;
    requires com.github.luben.zstd_jni;
    // MaxMind's reader for policy.geoip_database (a named module, no dependencies)
    requires com.maxmind.db;

    exports io.meshcontrol.core;
    exports io.meshcontrol.core.address;
    exports io.meshcontrol.core.apps;
    exports io.meshcontrol.core.auth;
    exports io.meshcontrol.core.config;
    exports io.meshcontrol.core.crypto;
    exports io.meshcontrol.core.event;
    exports io.meshcontrol.core.importing.headscale;
    exports io.meshcontrol.core.key;
    exports io.meshcontrol.core.location;
    exports io.meshcontrol.core.lock;
    exports io.meshcontrol.core.model;
    exports io.meshcontrol.core.net;
    exports io.meshcontrol.core.netmap;
    exports io.meshcontrol.core.netmap.context;
    exports io.meshcontrol.core.netmap.encoding;
    exports io.meshcontrol.core.netmap.frames;
    exports io.meshcontrol.core.netmap.session;
    exports io.meshcontrol.core.policy;
    exports io.meshcontrol.core.routes;
    exports io.meshcontrol.core.state;
    exports io.meshcontrol.core.wire;
    // Jackson instantiates the wire package's own (package-private) value filter and serializers
    opens io.meshcontrol.core.wire to tools.jackson.databind;
    // ... and the map codec's writer of peers encoded ahead (EncodedNodes)
    opens io.meshcontrol.core.netmap.encoding to tools.jackson.databind;
}
