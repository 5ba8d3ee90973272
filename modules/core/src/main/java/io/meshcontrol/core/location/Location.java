package io.meshcontrol.core.location;

/**
 * Where a machine is, as the location database places its public address.
 *
 * @param country ISO 3166-1 alpha-2 country code ({@code US}), as the database has it
 * @param city the city's English name, or null where the database has none (country databases, or no city known)
 * @param address the public address it was placed by
 */
public record Location(String country, String city, String address) {
}
