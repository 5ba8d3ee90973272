package io.meshcontrol.relay.derp;

import java.util.concurrent.atomic.LongAdder;

/** Counters of one relay, beside what they count. */
public final class RelayStats {

    /** Packets queued for a connected destination. */
    public final LongAdder forwarded = new LongAdder();
    /** Packets for a key not connected here ({@code unknown_dest} in Go's server). */
    public final LongAdder droppedUnknownDestination = new LongAdder();
    /** Older packets dropped from a full queue to make room ({@code queue_head}). */
    public final LongAdder droppedQueueHead = new LongAdder();
    /** Clients refused at the handshake because the server does not know their node key. */
    public final LongAdder refusedClients = new LongAdder();
    /** Packets sent on to another relay of the region, whose client they were for ({@code packets_forwarded_out}). */
    public final LongAdder forwardedToMesh = new LongAdder();
    /** Packets another relay of the region forwarded here ({@code packets_forwarded_in}). */
    public final LongAdder forwardedFromMesh = new LongAdder();
}
