package io.meshcontrol.api;

/** Body of {@code POST /api/v1/auth/approve} and {@code /api/v1/auth/reject}: the SSH check {@code authId}. */
public record AuthDecisionRequest(String authId) {
}
