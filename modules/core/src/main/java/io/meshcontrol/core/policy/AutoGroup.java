package io.meshcontrol.core.policy;

import io.meshcontrol.core.model.Role;
import java.util.Optional;

/** The vendor's built-in groups ({@code autogroup:<name>}). */
public enum AutoGroup {
    /** Every user's own (untagged) machines. */
    MEMBER("member", null),
    /** Every tagged machine. */
    TAGGED("tagged", null),
    /** In a destination: the machines of the same user as the source. */
    SELF("self", null),
    /** Public internet addresses, reached through exit nodes. */
    INTERNET("internet", null),
    /** In SSH {@code users}: any local user but root. */
    NONROOT("nonroot", null),
    /** Any address at all, even outside the network (sources only). */
    DANGER_ALL("danger-all", null),
    /** Machines shared in from other networks; this server has no sharing, so it is always empty. */
    SHARED("shared", null),
    OWNER("owner", Role.OWNER),
    ADMIN("admin", Role.ADMIN),
    IT_ADMIN("it-admin", Role.IT_ADMIN),
    NETWORK_ADMIN("network-admin", Role.NETWORK_ADMIN),
    BILLING_ADMIN("billing-admin", Role.BILLING_ADMIN),
    AUDITOR("auditor", Role.AUDITOR);

    public static final String PREFIX = "autogroup:";

    private final String name;
    private final Role role;

    AutoGroup(String name, Role role) {
        this.name = name;
        this.role = role;
    }

    /** The text form, {@code autogroup:member}. */
    public String text() {
        return PREFIX + name;
    }

    /** The user role this group stands for, or null when it is no role group. */
    public Role role() {
        return role;
    }

    /**
     * Whether a user of {@code userRole} belongs to this role group. The owner holds every admin right, so
     * {@code autogroup:admin} includes the owner (as in {@code tagOwners}).
     */
    public boolean includes(Role userRole) {
        return role != null && (role == userRole || (this == ADMIN && userRole == Role.OWNER));
    }

    public static Optional<AutoGroup> parse(String text) {
        for (AutoGroup group : values()) {
            if (group.text().equals(text)) {
                return Optional.of(group);
            }
        }
        return Optional.empty();
    }
}
