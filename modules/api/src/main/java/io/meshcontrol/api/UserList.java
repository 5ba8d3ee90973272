package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/user}: all users, or the one asked for by {@code name=}. */
public record UserList(List<UserView> users) {
}
