package io.meshcontrol.server.http;

/** A reply body sent as it is, for documents that are not JSON (the OpenAPI YAML, HTML, scripts). */
public record RawBody(String contentType, byte[] bytes) {
}
