package io.meshcontrol.core.auth;

import io.meshcontrol.core.MeshException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The vendor's scope vocabulary and the one rule of how scopes cover each other: {@code all} covers
 * everything, {@code all:read} every read scope, and a write scope {@code X} covers {@code X:read}.
 */
public final class Scopes {

    public static final String ALL = "all";
    public static final String ALL_READ = "all:read";
    private static final String READ_SUFFIX = ":read";

    /** Write scopes; each also exists as {@code <scope>:read}. */
    private static final List<String> WRITE_SCOPES = List.of(
            "devices:core", "devices:routes", "devices:posture_attributes", "auth_keys", "oauth_keys",
            "federated_keys", "api_access_tokens", "dns", "policy_file", "webhooks", "log_streaming",
            "logs:network", "feature_settings", "networking_settings", "users", "account_settings", "services",
            "device_invites");

    /** Scopes that exist only in their read form. */
    private static final List<String> READ_ONLY_SCOPES = List.of("logs:configuration:read");

    private static final Set<String> KNOWN = known();

    private Scopes() {
    }

    private static Set<String> known() {
        Set<String> known = new LinkedHashSet<>(List.of(ALL, ALL_READ));
        for (String scope : WRITE_SCOPES) {
            known.add(scope);
            known.add(scope + READ_SUFFIX);
        }
        known.addAll(READ_ONLY_SCOPES);
        return Set.copyOf(known);
    }

    public static boolean isKnown(String scope) {
        return KNOWN.contains(scope);
    }

    /** Refuses unknown scope names, naming the first one. */
    public static List<String> requireKnown(Collection<String> scopes) {
        for (String scope : scopes) {
            if (!isKnown(scope)) {
                throw MeshException.invalid("unknown scope \"" + scope + "\"");
            }
        }
        return List.copyOf(new LinkedHashSet<>(scopes));
    }

    /** Whether holding {@code held} allows what {@code wanted} allows. */
    public static boolean covers(Collection<String> held, String wanted) {
        if (held.contains(ALL) || held.contains(wanted)) {
            return true;
        }
        if (wanted.endsWith(READ_SUFFIX)) {
            return held.contains(ALL_READ) || held.contains(wanted.substring(0, wanted.length() - READ_SUFFIX.length()));
        }
        return false;
    }

    /**
     * What holding both {@code a} and {@code b} allows: the scopes covered by each, leaving out those another of them covers
     * ({@code [all]} and a role's list give the role's list; {@code [all:read]} and {@code [dns]} give {@code [dns:read]}).
     */
    public static List<String> intersection(Collection<String> a, Collection<String> b) {
        // Whatever both cover is one of their scopes or the read form of one.
        Set<String> candidates = new LinkedHashSet<>(a);
        candidates.addAll(b);
        for (String scope : List.copyOf(candidates)) {
            if (!scope.equals(ALL) && !scope.endsWith(READ_SUFFIX)) {
                candidates.add(scope + READ_SUFFIX);
            }
        }
        List<String> common = candidates.stream().filter(scope -> covers(a, scope) && covers(b, scope)).toList();
        return common.stream()
                .filter(scope -> common.stream().noneMatch(other -> !other.equals(scope) && covers(List.of(other), scope)))
                .toList();
    }

    /** Whether every scope of {@code wanted} is covered by {@code held}. */
    public static boolean coversAll(Collection<String> held, Collection<String> wanted) {
        return wanted.stream().allMatch(scope -> covers(held, scope));
    }
}
