package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One Tailscale SSH rule. Go: {@code tailcfg.SSHRule}.
 *
 * @param ruleExpires when the rule stops applying; absent means never
 * @param principals who the rule matches (any one of them); always written
 * @param sshUsers the SSH user asked for ("*" for any) mapped to the local user, "=" for the same name, "" for no match;
 *     always written
 * @param action what to do on a match; always written
 * @param acceptEnv environment variable names (with {@code *} and {@code ?} wildcards) the client may pass; absent when
 *     none
 */
public record SSHRule(
        @JsonProperty("ruleExpires") @OmitNull Instant ruleExpires,
        @JsonProperty("principals") List<SSHPrincipal> principals,
        @JsonProperty("sshUsers") Map<String, String> sshUsers,
        @JsonProperty("action") SSHAction action,
        @JsonProperty("acceptEnv") @OmitEmpty List<String> acceptEnv) {

    public SSHRule {
        principals = Copies.list(principals);
        sshUsers = Copies.map(sshUsers);
        acceptEnv = Copies.orEmpty(acceptEnv);
    }
}
