package io.meshcontrol.api;

/**
 * A document with the {@code ETag} it was served with, for conditional writes ({@code If-Match}).
 *
 * @param etag the header as the server wrote it (quoted), or null when it sent none
 */
public record Tagged<T>(T value, String etag) {
}
