/**
 * Where machines are: a MaxMind-format database ({@code policy.geoip_database}, read with MaxMind's own reader)
 * places each machine by the public addresses it reports, for the policy's {@code ip:country} posture conditions.
 */
package io.meshcontrol.core.location;
