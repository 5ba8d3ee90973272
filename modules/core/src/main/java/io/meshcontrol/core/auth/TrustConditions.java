package io.meshcontrol.core.auth;

import io.meshcontrol.core.model.OAuthClient;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Whether a workload's verified OIDC token meets a federated identity's trust conditions: the audience among the
 * token's {@code aud}, the {@code sub} matching the subject pattern, and every {@code customClaimRules} claim
 * matching its pattern. Patterns are literal text in which {@code *} matches any run of characters (also none).
 * Signature, issuer and times are checked before, by whoever verified the token.
 */
public final class TrustConditions {

    /** Claims the identity's own fields stand for; a custom rule may not name them. */
    public static final Set<String> RESERVED_CLAIMS = Set.of("sub", "iss", "aud");

    private TrustConditions() {
    }

    /** Why the token's claims do not meet {@code trust}, or empty when they do. */
    public static Optional<String> refusal(OAuthClient.Trust trust, Map<String, Object> claims) {
        List<String> audiences = texts(claims.get("aud"));
        if (!audiences.contains(trust.audience())) {
            return Optional.of("the token's audience " + audiences + " does not include \"" + trust.audience() + "\"");
        }
        Object subject = claims.get("sub");
        if (!(subject instanceof String sub) || !matches(trust.subject(), sub)) {
            return Optional.of("the token's subject \"" + subject + "\" does not match \"" + trust.subject() + "\"");
        }
        for (Map.Entry<String, String> rule : trust.customClaimRules().entrySet()) {
            List<String> values = texts(claims.get(rule.getKey()));
            if (values.stream().noneMatch(value -> matches(rule.getValue(), value))) {
                return Optional.of("the token's claim " + rule.getKey() + " " + (values.isEmpty() ? "is missing"
                        : "is " + (values.size() == 1 ? "\"" + values.getFirst() + "\"" : values))
                        + ", which does not match \"" + rule.getValue() + "\"");
            }
        }
        return Optional.empty();
    }

    /** Whether {@code value} matches {@code pattern}, where {@code *} stands for any run of characters. */
    public static boolean matches(String pattern, String value) {
        String regex = Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
        return Pattern.compile(regex, Pattern.DOTALL).matcher(value).matches();
    }

    /** A claim as texts: a string, each element of a list, other values in their JSON text form. */
    private static List<String> texts(Object claim) {
        if (claim == null) {
            return List.of();
        }
        if (claim instanceof Collection<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(claim));
    }
}
