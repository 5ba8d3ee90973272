package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpAddress;
import java.util.List;

/**
 * How the client should dial this control server next time, in {@code MapResponse.ControlDialPlan} (capver 44). Go:
 * {@code tailcfg.ControlDialPlan}. Absent in a map message means unchanged.
 *
 * @param candidates addresses to try instead of (or before) resolving the server's name; always written
 */
public record ControlDialPlan(@JsonProperty("Candidates") List<Candidate> candidates) {

    public ControlDialPlan {
        candidates = Copies.list(candidates);
    }

    /**
     * One way to reach the control server. Go: {@code tailcfg.ControlIPCandidate}; every field is left out when
     * empty.
     *
     * @param ip the address to dial; absent when {@code aceHost} is used
     * @param aceHost a host name to dial through an ACE proxy
     * @param dialStartDelaySec seconds to wait before trying this candidate
     * @param dialTimeoutSec seconds before giving up on it
     * @param priority higher is preferred; a success at a higher priority stops lower ones
     */
    public record Candidate(
            @JsonProperty("IP") @OmitNull IpAddress ip,
            @JsonProperty("ACEHost") @OmitEmpty String aceHost,
            @JsonProperty("DialStartDelaySec") @OmitEmpty double dialStartDelaySec,
            @JsonProperty("DialTimeoutSec") @OmitEmpty double dialTimeoutSec,
            @JsonProperty("Priority") @OmitEmpty int priority) {

        public Candidate {
            aceHost = Copies.text(aceHost);
        }
    }
}
