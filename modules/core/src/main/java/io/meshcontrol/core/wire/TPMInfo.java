package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The TPM a client found, in {@code Hostinfo.TPM}. Go: {@code tailcfg.TPMInfo}; every field is left out when empty.
 *
 * @param manufacturer the manufacturer id
 * @param vendor the vendor string
 * @param model the model number
 * @param firmwareVersion the firmware version
 * @param specRevision the TPM specification revision
 * @param familyIndicator the TPM family ("2.0")
 */
public record TPMInfo(
        @JsonProperty("Manufacturer") @OmitEmpty String manufacturer,
        @JsonProperty("Vendor") @OmitEmpty String vendor,
        @JsonProperty("Model") @OmitEmpty int model,
        @JsonProperty("FirmwareVersion") @OmitEmpty long firmwareVersion,
        @JsonProperty("SpecRevision") @OmitEmpty int specRevision,
        @JsonProperty("FamilyIndicator") @OmitEmpty String familyIndicator) {

    public TPMInfo {
        manufacturer = Copies.text(manufacturer);
        vendor = Copies.text(vendor);
        familyIndicator = Copies.text(familyIndicator);
    }
}
