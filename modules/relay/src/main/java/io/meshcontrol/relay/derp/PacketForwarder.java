package io.meshcontrol.relay.derp;

import io.meshcontrol.core.key.NodePublicKey;

/**
 * Where a packet goes when its destination is connected to another relay of the region: the link to that relay,
 * which sends it on as a ForwardPacket frame. It must not block: it is called on the sender's I/O thread.
 */
public interface PacketForwarder {

    /** Queues the packet for the other relay; false when it was dropped (the link is down or its queue full). */
    boolean forward(NodePublicKey source, NodePublicKey destination, byte[] packet);
}
