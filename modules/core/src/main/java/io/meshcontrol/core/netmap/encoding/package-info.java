/**
 * Peers encoded ahead: {@link io.meshcontrol.core.netmap.encoding.EncodedNodes}, a map's peer list whose members are
 * JSON already (each node encoded once and shared by every map that carries it), with blocks of peers also kept
 * compressed, and {@link io.meshcontrol.core.netmap.encoding.BlockSlots}, the placeholders a block is written as
 * until the frame codec splices it in. Used by map streaming and the frame codec; uses neither.
 */
package io.meshcontrol.core.netmap.encoding;
