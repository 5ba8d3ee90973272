package io.meshcontrol.core.policy;

import java.util.List;

/**
 * The failed cases of the policy tests that share one source.
 *
 * @param source the tests' {@code src} (a user, group, tag or address)
 * @param errors one readable line per failed case
 */
public record PolicyTestFailure(String source, List<String> errors) {

    public PolicyTestFailure {
        errors = List.copyOf(errors);
    }
}
