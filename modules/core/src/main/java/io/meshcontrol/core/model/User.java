package io.meshcontrol.core.model;

import java.time.Instant;

/**
 * A person (or identity) in the network. {@code id} is a number because the control protocol's
 * UserProfile.ID is one; ids are never reused.
 *
 * @param displayName may be empty
 * @param email may be empty
 * @param approved false while a user made by a first login waits for users approval ({@code svc users approve})
 */
public record User(long id, String name, String displayName, String email, Role role, Instant createdAt,
        boolean approved) {

    /** The login name shown to peers and in webhooks: the e-mail when known, else the name. */
    public String loginName() {
        return email.isEmpty() ? name : email;
    }

    public User withName(String newName) {
        return new User(id, newName, displayName, email, role, createdAt, approved);
    }

    public User withRole(Role newRole) {
        return new User(id, name, displayName, email, newRole, createdAt, approved);
    }

    public User withProfile(String newDisplayName, String newEmail) {
        return new User(id, name, newDisplayName, newEmail, role, createdAt, approved);
    }

    public User withApproved() {
        return new User(id, name, displayName, email, role, createdAt, true);
    }
}
