package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.netmap.frames.MapFrame;
import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.WireJson;

/**
 * Glue for "encode map message M for the wire": JSON, then a zstd frame as a map stream sends it. The only class of
 * the encoding benchmarks that calls core's wire code.
 */
public final class MapEncoding implements AutoCloseable {

    private final MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL);

    public byte[] json(MapResponse message) {
        return WireJson.write(message);
    }

    /**
     * The frame as a map stream sends it: zstd at the server's level, blocks of peers compressed once and kept, in
     * the pieces the stream writes (the kept blocks' own arrays, not joined).
     */
    public MapFrame frame(MapResponse message) {
        return frames.encodeInPieces(message);
    }

    /** zstd alone, of JSON already encoded. */
    public byte[] compress(byte[] json) {
        return frames.encodeJson(json);
    }

    @Override
    public void close() {
        frames.close();
    }
}
