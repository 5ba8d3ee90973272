/**
 * Map streaming, with no HTTP in it: what each node is sent on its {@code /machine/map} stream and how it is framed.
 *
 * <ul>
 *   <li>{@link io.meshcontrol.core.netmap.MapSessions}: the open streams, one per node, and the change batcher that
 *       turns the state's change feed into one {@link io.meshcontrol.core.netmap.session.ChangeSet} per short window
 *       for every stream; {@link io.meshcontrol.core.netmap.MapSession}: one stream (full map, then deltas and
 *       keep-alives).</li>
 *   <li>{@link io.meshcontrol.core.netmap.MapSessionState}: what one stream has sent and what it must send next,
 *       built from one {@link io.meshcontrol.core.netmap.MapInputs} value (snapshot, access rules, route table, map
 *       context, time); its parts: {@link io.meshcontrol.core.netmap.SelfView} (the node's own node, capabilities and
 *       DNS), {@link io.meshcontrol.core.netmap.PeerView} (whom it sees, each peer's wire form for it),
 *       {@link io.meshcontrol.core.netmap.FullMapPeers} and {@link io.meshcontrol.core.netmap.DeltaPeers} (the peers
 *       of a full map and of a delta), {@link io.meshcontrol.core.netmap.SentProfiles}.</li>
 *   <li>Shared between streams: {@link io.meshcontrol.core.netmap.PeerForms} (every node's wire form, encoded once),
 *       {@link io.meshcontrol.core.netmap.AccessControl} (the policy compiled once per relevant change), the full-map
 *       gate and each batch's encoded frames.</li>
 * </ul>
 *
 * <p>Three sub-packages hold what needs no map inputs; they never use this package, which builds on them:
 * {@code session} (what a session remembers: {@code IdSet}, {@code SentRoutes}, and the {@code ChangeSet} it is
 * given), {@code encoding} (peers encoded ahead: {@code EncodedNodes}) and {@code frames} (the codec:
 * {@code MapFrames}, length-prefixed, zstd-compressed frames; {@code SharedFrames}, a batch's frames encoded once;
 * {@code MapFrameReader}, the client's side, for tests and tools). The messages themselves are the tailcfg mirror
 * in {@code io.meshcontrol.core.wire}.
 *
 * <p>The server's {@code MapEndpoint} is the only HTTP adapter: it reads the request, opens a stream here and hands it
 * the response's output stream. What the streams count goes to {@link io.meshcontrol.core.netmap.MapStreamMetrics}.
 */
package io.meshcontrol.core.netmap;
