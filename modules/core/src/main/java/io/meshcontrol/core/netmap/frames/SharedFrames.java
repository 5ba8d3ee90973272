package io.meshcontrol.core.netmap.frames;

import io.meshcontrol.core.wire.MapResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The frames of one batch's deltas, by message and frame format: most streams get the same delta for the same change
 * (the changed peers, the batch's time), so it is encoded and compressed once and the bytes are written to each.
 * A message with a self node is one session's own and is not kept. Thread-safe.
 */
public final class SharedFrames {

    private record Key(MapResponse message, String format) {
    }

    /**
     * One message's frame, encoded by the first session that needs it while the others that need it wait. The map
     * itself only makes slots: encoding inside its {@code computeIfAbsent} held the lock of a whole bin of the table, so
     * under {@code autogroup:self}, where each of 10,000 sessions has a message of its own (its packet filter), sessions
     * with different messages waited for each other's encoding.
     */
    private static final class Slot {
        private byte[] frame;

        synchronized byte[] frame(MapResponse message, MapFrames encoder) {
            if (frame == null) {
                frame = encoder.encode(message);
            }
            return frame;
        }
    }

    private final Map<Key, Slot> frames = new ConcurrentHashMap<>();

    /** The frame of {@code message} in {@code encoder}'s format; do not modify the bytes. */
    public byte[] frame(MapResponse message, MapFrames encoder) {
        if (message.node() != null) {
            return encoder.encode(message);
        }
        return frames.computeIfAbsent(new Key(message, encoder.format()), key -> new Slot()).frame(message, encoder);
    }

    /** How many distinct frames were encoded (tests). */
    public int size() {
        return frames.size();
    }
}
