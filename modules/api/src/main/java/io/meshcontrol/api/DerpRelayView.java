package io.meshcontrol.api;

/**
 * A relay of your own in the DERP settings, published as region {@code regionId} with one node.
 *
 * @param code the region code clients show (also used as its name)
 * @param host the relay's HTTP host name (or IP address); clients dial it on 443, STUN on 3478
 * @param ipv4 an IPv4 address clients dial instead of resolving {@code host}; absent to resolve
 */
public record DerpRelayView(Integer regionId, String code, String host, String ipv4) {
}
