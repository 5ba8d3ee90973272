package io.meshcontrol.api;

/**
 * The policy file: {@code GET /api/v1/policy} returns it (its ETag in the {@code ETag} header) and
 * {@code PUT /api/v1/policy} saves it (optional {@code If-Match}).
 *
 * @param policy the HuJSON text, verbatim, comments included
 */
public record PolicyDocument(String policy) {
}
