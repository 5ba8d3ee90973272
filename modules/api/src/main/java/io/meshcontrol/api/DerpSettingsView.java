package io.meshcontrol.api;

import java.util.List;

/**
 * The DERP settings: {@code GET /api/v1/derp} answers every field; {@code PUT} replaces them. A field left out of a
 * {@code PUT} takes the configuration file's value, except {@code verifyClients}, which is then on.
 *
 * @param urls DERP map URLs fetched and merged in order; empty means only this server's relays
 * @param autoUpdate whether the map URLs are refetched (and map files reread) every {@code updateFrequency}
 * @param updateFrequency Go-style duration such as {@code 24h}; at least one minute
 * @param relayEnabled whether the embedded relay runs and is published (region 999 by default)
 * @param ipv4 the embedded relay's published IPv4 address, {@code none}, or empty to let clients resolve the host
 * @param ipv6 the same for IPv6
 * @param verifyClients whether only nodes of this network may use the embedded relay
 * @param stunEnabled whether STUN runs; off closes the socket and publishes the relay without STUN
 * @param stunListenAddr UDP {@code host:port} for STUN; port 0 binds a free port, which is published
 * @param relays relays of your own elsewhere, each published as a one-node region
 * @param stunUnavailable read only: why STUN does not answer although it is on (its address could not be bound at
 *                        start; the server keeps trying); absent while STUN answers or is off, ignored in a {@code PUT}
 */
public record DerpSettingsView(List<String> urls, Boolean autoUpdate, String updateFrequency, Boolean relayEnabled,
                               String ipv4, String ipv6, Boolean verifyClients, Boolean stunEnabled,
                               String stunListenAddr, List<DerpRelayView> relays, String stunUnavailable) {

    /** A copy with other relays, for read-modify-write edits. */
    public DerpSettingsView withRelays(List<DerpRelayView> newRelays) {
        return new DerpSettingsView(urls, autoUpdate, updateFrequency, relayEnabled, ipv4, ipv6, verifyClients,
                stunEnabled, stunListenAddr, newRelays, null);
    }
}
