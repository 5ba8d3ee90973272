package io.meshcontrol.core.state;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import java.time.Duration;

/**
 * The longest a key may live ({@code api_keys.max_expiration}, {@code preauth_keys.max_expiration}): a request for
 * longer is refused with the cap named, never shortened behind the caller's back; a key made without a lifetime gets
 * the default, or the cap when that is shorter.
 */
public record MaxKeyLifetimes(Duration apiKey, Duration preAuthKey) {

    /** A year: a key used longer than that should be rotated (the vendor caps its own keys at 90 days). */
    public static final Duration DEFAULT = Duration.ofDays(365);

    public MaxKeyLifetimes {
        if (apiKey.isNegative() || apiKey.isZero() || preAuthKey.isNegative() || preAuthKey.isZero()) {
            throw new IllegalArgumentException("a key lifetime cap must be positive");
        }
    }

    public static MaxKeyLifetimes defaults() {
        return new MaxKeyLifetimes(DEFAULT, DEFAULT);
    }

    /** An API key's lifetime: {@code requested}, or the 90-day default when null. */
    Duration apiKeyLifetime(Duration requested) {
        return lifetime(requested, ApiKeys.DEFAULT_EXPIRY, apiKey, "api_keys.max_expiration");
    }

    /** A pre-auth key's lifetime: {@code requested}, or the 90-day default when null. */
    Duration preAuthKeyLifetime(Duration requested) {
        return lifetime(requested, PreAuthKeys.DEFAULT_EXPIRY, preAuthKey, "preauth_keys.max_expiration");
    }

    private static Duration lifetime(Duration requested, Duration byDefault, Duration max, String setting) {
        if (requested == null) {
            return byDefault.compareTo(max) <= 0 ? byDefault : max;
        }
        if (requested.isNegative() || requested.isZero()) {
            throw MeshException.invalid("expiration must be a positive duration, got " + GoDuration.format(requested));
        }
        if (requested.compareTo(max) > 0) {
            throw MeshException.invalid("expiration " + GoDuration.format(requested) + " is longer than the maximum of "
                    + GoDuration.format(max) + " (" + setting + ")");
        }
        return requested;
    }
}
