package io.meshcontrol.core.netmap;

import io.meshcontrol.core.wire.MapResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The frames of one batch's deltas, by message and frame format: most streams get the same delta for the same change
 * (the changed peers, the batch's time), so it is encoded and compressed once and the bytes are written to each.
 * A message with a self node is one session's own and is not kept. Thread-safe.
 */
final class SharedFrames {

    private record Key(MapResponse message, String format) {
    }

    private final Map<Key, byte[]> frames = new ConcurrentHashMap<>();

    /** The frame of {@code message} in {@code encoder}'s format; do not modify the bytes. */
    byte[] frame(MapResponse message, MapFrames encoder) {
        if (message.node() != null) {
            return encoder.encode(message);
        }
        return frames.computeIfAbsent(new Key(message, encoder.format()), key -> encoder.encode(message));
    }

    /** How many distinct frames were encoded (tests). */
    int size() {
        return frames.size();
    }
}
