package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.User;
import io.meshcontrol.core.netmap.session.IdSet;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.wire.UserProfile;
import java.util.Comparator;
import java.util.List;

/** The user profiles one map session has sent: each once, and again when the user is renamed. */
final class SentProfiles {

    private final IdSet sent = new IdSet();

    void clear() {
        sent.clear();
    }

    /** Adds the user's profile to {@code out} when this session has not sent it yet. */
    void addIfNew(long userId, NetworkSnapshot snapshot, List<UserProfile> out) {
        if (sent.add(userId)) {
            out.add(profile(userId, snapshot));
        }
    }

    /** Adds the profiles of the changed users this session has sent and that {@code out} lacks (renamed: again). */
    void addChanged(Iterable<Long> userIds, NetworkSnapshot snapshot, List<UserProfile> out) {
        for (long userId : userIds) {
            if (sent.contains(userId) && snapshot.user(userId).isPresent()
                    && out.stream().noneMatch(p -> p.id() == userId)) {
                out.add(profile(userId, snapshot));
            }
        }
    }

    private static UserProfile profile(long userId, NetworkSnapshot snapshot) {
        if (userId == WireNodes.TAGGED_DEVICES_USER_ID) {
            return new UserProfile(userId, "tagged-devices", "Tagged Devices", null, null);
        }
        User user = snapshot.user(userId).orElse(null);
        if (user == null) {
            return new UserProfile(userId, "unknown", "Unknown user", null, null);
        }
        return new UserProfile(userId, user.loginName(), user.displayName().isEmpty() ? user.name() : user.displayName(),
                null, null);
    }

    /** The profiles in id order, as a message carries them. */
    static List<UserProfile> sorted(List<UserProfile> profiles) {
        profiles.sort(Comparator.comparingLong(UserProfile::id));
        return profiles;
    }
}
