package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Where a node is, which control puts into a peer's Hostinfo so that clients can rank exit nodes (never sent by the
 * client about itself). Go: {@code tailcfg.Location}; every field is left out when empty or zero.
 *
 * @param country the country name ("Canada")
 * @param countryCode ISO 3166-1 alpha-2 in upper case ("CA")
 * @param city the city name ("Squamish")
 * @param cityCode a short city code ("YSE")
 * @param latitude degrees north
 * @param longitude degrees east
 * @param priority higher wins when clients choose among exit nodes (capver 119); 0 means no preference
 */
public record Location(
        @JsonProperty("Country") @OmitEmpty String country,
        @JsonProperty("CountryCode") @OmitEmpty String countryCode,
        @JsonProperty("City") @OmitEmpty String city,
        @JsonProperty("CityCode") @OmitEmpty String cityCode,
        @JsonProperty("Latitude") @OmitEmpty double latitude,
        @JsonProperty("Longitude") @OmitEmpty double longitude,
        @JsonProperty("Priority") @OmitEmpty int priority) {

    public Location {
        country = Copies.text(country);
        countryCode = Copies.text(countryCode);
        city = Copies.text(city);
        cityCode = Copies.text(cityCode);
    }
}
