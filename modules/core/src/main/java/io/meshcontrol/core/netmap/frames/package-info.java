/**
 * The map frame codec, with no I/O of its own: {@link io.meshcontrol.core.netmap.frames.MapFrames} (a message as one
 * length-prefixed frame, zstd-compressed when the client asked, with blocks of peers encoded ahead spliced in
 * compressed), {@link io.meshcontrol.core.netmap.frames.MapFrame} (a frame in the pieces it is made of, which a
 * stream's output takes as they are), {@link io.meshcontrol.core.netmap.frames.SharedFrames} (one batch's frames,
 * encoded once for every stream that sends the same delta) and
 * {@link io.meshcontrol.core.netmap.frames.MapFrameReader} (the client's side, for tests and tools). Uses
 * {@code encoding}; map streaming uses it.
 */
package io.meshcontrol.core.netmap.frames;
