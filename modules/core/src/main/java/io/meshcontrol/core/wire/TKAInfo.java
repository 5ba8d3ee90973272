package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The tailnet lock's standing, in {@code MapResponse.TKAInfo}. Go: {@code tailcfg.TKAInfo}. Absent in a map message
 * means unchanged; a client holding no lock reads an absent one as "no tailnet lock".
 *
 * @param head the authority's head AUM hash (base32); absent once lock is disabled. A client whose head differs syncs
 * @param disabled lock was disabled: a client holding it fetches the disablement secret and drops it; absent when false
 */
public record TKAInfo(@JsonProperty("Head") @OmitEmpty String head, @JsonProperty("Disabled") @OmitEmpty boolean disabled) {

    public TKAInfo {
        head = Copies.text(head);
    }
}
