package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.frames.SharedFrames;
import io.meshcontrol.core.netmap.session.ChangeSet;
import io.meshcontrol.core.state.NetworkSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * One flush of the change batcher, handed to every map stream: what changed, the snapshot holding exactly the changes
 * flushed so far, the time every delta of the batch carries as {@code ControlTime}, and the frames encoded for it so
 * far (sessions that send the same message send the same bytes).
 */
record MapBatch(ChangeSet changes, NetworkSnapshot snapshot, Instant at, SharedFrames frames) {

    /** Batches in the order they came, as one, for a stream that fell behind. */
    static MapBatch merge(List<MapBatch> batches) {
        if (batches.size() == 1) {
            return batches.getFirst();
        }
        MapBatch last = batches.getLast();
        NetworkSnapshot newest = last.snapshot;
        for (MapBatch batch : batches) {
            newest = batch.snapshot.version() > newest.version() ? batch.snapshot : newest;
        }
        return new MapBatch(ChangeSet.mergeAll(batches.stream().map(MapBatch::changes).toList()), newest, last.at,
                last.frames);
    }
}
