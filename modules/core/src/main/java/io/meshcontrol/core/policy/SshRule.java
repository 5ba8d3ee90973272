package io.meshcontrol.core.policy;

import java.time.Duration;
import java.util.List;

/**
 * One {@code ssh} entry: who may log in to which machines as which local users.
 *
 * @param check true for {@code "action": "check"} (the user must have re-authenticated recently), false for accept
 * @param checkPeriod how long a check holds; null for the default, {@link Duration#ZERO} for {@code always}
 * @param users local users: names, {@code autogroup:nonroot}, or {@code localpart:*@domain}
 */
public record SshRule(boolean check, List<Alias> src, List<Alias> dst, List<String> users, Duration checkPeriod,
        List<String> acceptEnv) {

    public SshRule {
        src = List.copyOf(src);
        dst = List.copyOf(dst);
        users = List.copyOf(users);
        acceptEnv = List.copyOf(acceptEnv);
    }
}
