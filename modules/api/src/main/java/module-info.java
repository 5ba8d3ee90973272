/** The /api/v1 contract: records, problem details and a Java client shared by the CLI and the desktop app. */
module io.meshcontrol.api {
    requires transitive tools.jackson.databind;
    requires transitive com.fasterxml.jackson.annotation;
    requires tools.jackson.core;
    requires tools.jackson.dataformat.yaml;
    requires java.net.http;

    exports io.meshcontrol.api;
}
