package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Who may connect to this node with Tailscale SSH, and as whom. Go: {@code tailcfg.SSHPolicy}; the SSH types use
 * camelCase JSON names. In a map message, absent means unchanged and present replaces the previous policy.
 *
 * @param rules the rules, first match wins; always written ({@code null} when none)
 */
public record SSHPolicy(@JsonProperty("rules") List<SSHRule> rules) {

    public SSHPolicy {
        rules = Copies.list(rules);
    }
}
