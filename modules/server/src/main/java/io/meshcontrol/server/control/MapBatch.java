package io.meshcontrol.server.control;

import io.meshcontrol.core.netmap.ChangeSet;
import io.meshcontrol.core.state.NetworkSnapshot;
import java.time.Instant;

/**
 * One flush of the change batcher, handed to every map stream: what changed, the snapshot holding exactly the changes
 * flushed so far, the time every delta of the batch carries as {@code ControlTime}, and the frames encoded for it so
 * far (sessions that send the same message send the same bytes).
 */
record MapBatch(ChangeSet changes, NetworkSnapshot snapshot, Instant at, SharedFrames frames) {

    /** This batch followed by a later one, for a stream that fell behind. */
    MapBatch merge(MapBatch later) {
        NetworkSnapshot newer = later.snapshot.version() >= snapshot.version() ? later.snapshot : snapshot;
        return new MapBatch(changes.merge(later.changes), newer, later.at, later.frames);
    }
}
