package io.meshcontrol.api;

/** {@code GET /version}: the server's version and the Java runtime it runs on. */
public record VersionInfo(String version, String java) {
}
