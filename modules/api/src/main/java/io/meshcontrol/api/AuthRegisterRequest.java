package io.meshcontrol.api;

/** Body of {@code POST /api/v1/auth/register}: complete the interactive login {@code authId} for {@code user}. */
public record AuthRegisterRequest(String user, String authId) {
}
