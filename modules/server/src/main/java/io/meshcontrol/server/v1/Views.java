package io.meshcontrol.server.v1;

import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.UserView;
import io.meshcontrol.core.model.ApiKey;
import io.meshcontrol.core.model.User;
import java.time.Instant;

/** Domain records to their v1 views. */
final class Views {

    private Views() {
    }

    static UserView user(User user) {
        return new UserView(Long.toString(user.id()), user.name(), user.displayName(), user.email(),
                user.role().wireName(), user.createdAt());
    }

    static ApiKeyView apiKey(ApiKey key, User owner, Instant now) {
        return new ApiKeyView(key.id(), key.prefix(), key.description(), owner == null ? null : owner.name(),
                key.scopes(), key.createdAt(), key.expiresAt(), key.isExpired(now), key.lastUsedAt());
    }
}
