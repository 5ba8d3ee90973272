package io.meshcontrol.core.netmap.frames;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.WireJson;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Reads map frames as a client does: length, body, decompress when compressed, JSON. For tests and tools; the server
 * only writes frames ({@link MapFrames}). Not thread-safe.
 */
public final class MapFrameReader {

    private final InputStream in;
    private final boolean compressed;

    /** @param compressed whether bodies are zstd frames (the request asked for {@code Compress: "zstd"}) */
    public MapFrameReader(InputStream in, boolean compressed) {
        this.in = in;
        this.compressed = compressed;
    }

    /** The next message, or {@code null} at a clean end of the stream (between frames). */
    public MapResponse next() throws IOException {
        byte[] json = nextJson();
        return json == null ? null : WireJson.read(json, MapResponse.class);
    }

    /** The next message's JSON, or {@code null} at a clean end of the stream (between frames). */
    public byte[] nextJson() throws IOException {
        byte[] header = in.readNBytes(MapFrames.HEADER_LENGTH);
        if (header.length == 0) {
            return null;
        }
        if (header.length < MapFrames.HEADER_LENGTH) {
            throw new EOFException("map stream ended inside a frame header");
        }
        int length = MapFrames.bodyLength(header, 0);
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new EOFException("map stream ended after " + body.length + " of " + length + " body bytes");
        }
        return compressed ? decompress(body) : body;
    }

    /** Decompresses a body of one or more zstd frames, with or without declared content sizes. */
    static byte[] decompress(byte[] frame) {
        long size = Zstd.getFrameContentSize(frame);
        if (size >= 0 && size <= Integer.MAX_VALUE && Zstd.findFrameCompressedSize(frame) == frame.length) {
            return Zstd.decompress(frame, (int) size);
        }
        try (InputStream zstd = new ZstdInputStream(new ByteArrayInputStream(frame))) {
            return zstd.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("not a zstd frame", e);
        }
    }
}
