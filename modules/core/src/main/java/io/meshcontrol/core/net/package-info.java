/**
 * IP addresses, prefixes, ranges ({@link io.meshcontrol.core.net.IpBlock}) and address-and-port pairs as immutable
 * values, each with the one parser everything else calls (configuration, policy, routes, the wire records). Text is
 * read and written as Go's {@code net/netip} does, never through DNS, so a value means on this server what it means
 * to a Tailscale client. The wire records carry these types as JSON strings in the same form.
 */
package io.meshcontrol.core.net;
