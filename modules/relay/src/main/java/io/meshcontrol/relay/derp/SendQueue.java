package io.meshcontrol.relay.derp;

import java.util.ArrayDeque;

/**
 * What is waiting to be written to one client. Three lanes, written in this order: control frames (handshake,
 * pongs, peer-gone, keep-alives), disco packets (NAT traversal, small and time-critical), other packets. Each lane is
 * bounded; a full packet lane drops its oldest packet to make room, as Tailscale's server does: a relay that blocks
 * the sender for a slow receiver would slow everyone, and a newer packet is worth more than an old one.
 */
final class SendQueue {

    /** Tailscale's per-client queue depth ({@code defaultPerClientSendQueueDepth}). */
    static final int DEFAULT_DEPTH = 32;

    private final int depth;
    private final ArrayDeque<byte[]> control = new ArrayDeque<>();
    private final ArrayDeque<byte[]> disco = new ArrayDeque<>();
    private final ArrayDeque<byte[]> packets = new ArrayDeque<>();
    private long dropped;

    SendQueue(int depth) {
        this.depth = depth;
    }

    /** Queues a control frame; they are few and small, and losing a handshake frame would break the session. */
    synchronized void offerControl(byte[] frame) {
        control.addLast(frame);
    }

    /** Queues a packet frame; returns false when the lane was full and its oldest packet was dropped for it. */
    synchronized boolean offerPacket(byte[] frame, boolean isDisco) {
        ArrayDeque<byte[]> lane = isDisco ? disco : packets;
        boolean kept = true;
        if (lane.size() >= depth) {
            lane.removeFirst();
            dropped++;
            kept = false;
        }
        lane.addLast(frame);
        return kept;
    }

    /** The next frame to write, or null when nothing waits. */
    synchronized byte[] poll() {
        byte[] next = control.pollFirst();
        if (next == null) {
            next = disco.pollFirst();
        }
        if (next == null) {
            next = packets.pollFirst();
        }
        return next;
    }

    synchronized boolean isEmpty() {
        return control.isEmpty() && disco.isEmpty() && packets.isEmpty();
    }

    synchronized long dropped() {
        return dropped;
    }
}
