package io.meshcontrol.core.policy;

import java.time.Duration;
import java.util.List;

/**
 * One {@code ssh} entry: who may log in to which machines as which local users.
 *
 * @param check true for {@code "action": "check"} (the user must have re-authenticated recently), false for accept
 * @param checkPeriod how long a check holds; null for the default, {@link Duration#ZERO} for {@code always}
 * @param users local users: names, {@code autogroup:nonroot}, or {@code localpart:*@domain}
 * @param recorders tags of the session recorder machines ({@code recorder}) the sessions are streamed to
 * @param enforceRecorder no session without a recording ({@code enforceRecorder}): refused or ended when recording
 *                        fails; otherwise the session goes on unrecorded
 * @param srcPosture postures of which a source must satisfy one; empty for the policy's default
 */
public record SshRule(boolean check, List<Alias> src, List<Alias> dst, List<String> users, Duration checkPeriod,
        List<String> acceptEnv, List<Alias> recorders, boolean enforceRecorder, List<String> srcPosture) {

    public SshRule {
        src = List.copyOf(src);
        dst = List.copyOf(dst);
        users = List.copyOf(users);
        acceptEnv = List.copyOf(acceptEnv);
        recorders = List.copyOf(recorders);
        srcPosture = List.copyOf(srcPosture);
    }

    /** A rule without postures of its own. */
    public SshRule(boolean check, List<Alias> src, List<Alias> dst, List<String> users, Duration checkPeriod,
            List<String> acceptEnv, List<Alias> recorders, boolean enforceRecorder) {
        this(check, src, dst, users, checkPeriod, acceptEnv, recorders, enforceRecorder, List.of());
    }

    /** A rule without session recording. */
    public SshRule(boolean check, List<Alias> src, List<Alias> dst, List<String> users, Duration checkPeriod,
            List<String> acceptEnv) {
        this(check, src, dst, users, checkPeriod, acceptEnv, List.of(), false);
    }
}
