/**
 * The control protocol's JSON contract: what real Tailscale clients send to {@code /machine/*} and what the server
 * answers, as records mirroring Tailscale's {@code tailcfg} package (the Go type is named on each record), and the
 * JSON mapper shaped after Go's. How map messages are framed and compressed for a stream is map streaming's business
 * ({@code io.meshcontrol.core.netmap.MapFrames}).
 *
 * <p>Conventions, the same in every record:
 * <ul>
 *   <li>Each component carries its exact Go JSON name; the record's Javadoc says, per field, when it is sent and what
 *       its absence means. Fields Go tags {@code omitempty}/{@code omitzero} are left out exactly when Go would leave
 *       them out; all others are always written.</li>
 *   <li>In Java, an absent field is {@code null} only where absent means something of its own ("unchanged" in a map
 *       delta, "unknown" for an {@code opt.Bool}, "same as Addresses" for {@code AllowedIPs}). Lists and maps Go omits
 *       when empty are empty, never {@code null}; strings are {@code ""}; absent times are {@code null}
 *       ({@link io.meshcontrol.core.wire.GoTime#ZERO} only where a pointer in Go makes the zero time a value).</li>
 *   <li>Where the client tells "absent" from "empty" but Go's own encoder cannot write the empty value
 *       ({@code MapResponse.PacketFilter}, {@code Health}, several {@code PeerChange} fields), an empty value is
 *       written and means "empty".</li>
 *   <li>A client's {@link io.meshcontrol.core.wire.Hostinfo} is kept as sent and passed to peers unchanged, fields
 *       unknown to us included.</li>
 * </ul>
 *
 * <p>Entry points: {@link io.meshcontrol.core.wire.WireJson} (the mapper),
 * {@link io.meshcontrol.core.wire.CapabilityVersion} (what a client's version means). Checked against Tailscale's own
 * types by {@code interop/wirecheck}.
 */
package io.meshcontrol.core.wire;
