package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Debugging instructions, in {@code MapResponse.Debug}. Go: {@code tailcfg.Debug}; every field is left out when empty.
 * Absent in a map message means none.
 *
 * @param sleepSeconds make the client sleep this long before its next map request
 * @param disableLogTail stop uploading logs (and mark the node no-logs-no-support), as self-hosted servers want
 * @param exit make the client exit with this code; absent means keep running
 */
public record Debug(
        @JsonProperty("SleepSeconds") @OmitEmpty double sleepSeconds,
        @JsonProperty("DisableLogTail") @OmitEmpty boolean disableLogTail,
        @JsonProperty("Exit") @OmitNull Integer exit) {
}
