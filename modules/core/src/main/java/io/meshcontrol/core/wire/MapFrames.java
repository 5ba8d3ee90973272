package io.meshcontrol.core.wire;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Turns map messages into the frames of a {@code /machine/map} response body: a 4-byte little-endian length, then
 * that many bytes of JSON, zstd-compressed (one independent zstd frame per message) when the request asked for
 * {@code Compress: "zstd"}. Real clients always ask, and always decompress.
 *
 * <p>One instance per map session, not thread-safe (one writer at a time). The native zstd contexts are not the
 * session's own: each encoding borrows one from a pool shared by all sessions, since a context costs far more native
 * memory than a session otherwise needs and only as many compress at once as there are threads running. The
 * keep-alive frame is encoded once; its bytes are identical every time, which lets the client recognise it without
 * decompressing. Two instances with the same {@link #format()} produce the same bytes for the same message, so a
 * frame can be shared by every session that sends that message.
 */
public final class MapFrames implements AutoCloseable {

    /** Length of the frame header. */
    public static final int HEADER_LENGTH = 4;
    /**
     * zstd level used unless told otherwise, close to Go's {@code zstd.SpeedFastest} that headscale uses. Measured on a
     * 10,000-peer map (11.9 MB of JSON, random keys, 2-core machine): level 1 takes 14 ms for 1.47 MB, level 3 34 ms
     * for 1.69 MB, level 6 96 ms; encoding the JSON itself takes about 60-70 ms.
     */
    public static final int DEFAULT_LEVEL = 1;

    /** Idle contexts kept per level; more are made when more threads compress at once, and closed after. */
    private static final int POOL_SIZE = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    private static final Map<Integer, Deque<ZstdCompressCtx>> POOLS = new ConcurrentHashMap<>();

    /** zstd level, or null for plain JSON. */
    private final Integer level;
    private byte[] keepAlive;

    private MapFrames(Integer level) {
        this.level = level;
    }

    /** Frames for the answer to this request: zstd when it asks for it, plain JSON otherwise. */
    public static MapFrames forRequest(MapRequest request) {
        return request.wantsZstd() ? zstd(DEFAULT_LEVEL) : plain();
    }

    /** Frames of zstd-compressed JSON at a zstd level (1..19; negative levels are faster still). */
    public static MapFrames zstd(int level) {
        return new MapFrames(level);
    }

    /** Frames of plain JSON. */
    public static MapFrames plain() {
        return new MapFrames(null);
    }

    /** Whether bodies are zstd-compressed. */
    public boolean compresses() {
        return level != null;
    }

    /** What decides the bytes of a frame besides the message: {@code "plain"} or {@code "zstd:<level>"}. */
    public String format() {
        return level == null ? "plain" : "zstd:" + level;
    }

    /** The frame of one message: header and (compressed) JSON. */
    public byte[] encode(MapResponse message) {
        return encodeJson(WireJson.write(message));
    }

    /** The frame of a message already encoded as JSON (for example one shared by many sessions). */
    public byte[] encodeJson(byte[] json) {
        if (level == null) {
            byte[] frame = new byte[HEADER_LENGTH + json.length];
            System.arraycopy(json, 0, frame, HEADER_LENGTH, json.length);
            return withLength(frame, json.length);
        }
        Deque<ZstdCompressCtx> pool = POOLS.computeIfAbsent(level, l -> new ConcurrentLinkedDeque<>());
        ZstdCompressCtx zstd = pool.pollFirst();
        if (zstd == null) {
            zstd = new ZstdCompressCtx();
            zstd.setLevel(level);
            zstd.setContentSize(true);
            zstd.setChecksum(false);
        }
        try {
            byte[] frame = new byte[HEADER_LENGTH + Math.toIntExact(Zstd.compressBound(json.length))];
            int length = zstd.compressByteArray(frame, HEADER_LENGTH, frame.length - HEADER_LENGTH, json, 0, json.length);
            return withLength(Arrays.copyOf(frame, HEADER_LENGTH + length), length);
        } finally {
            if (pool.size() < POOL_SIZE) {
                pool.offerFirst(zstd);
            } else {
                zstd.close();
            }
        }
    }

    /** The keep-alive frame, {@code {"KeepAlive":true}}; the same bytes every time (do not modify them). */
    public byte[] keepAlive() {
        if (keepAlive == null) {
            keepAlive = encode(MapResponse.KEEP_ALIVE);
        }
        return keepAlive;
    }

    /** The body length a frame header declares. */
    public static int bodyLength(byte[] header, int offset) {
        long length = (header[offset] & 0xffL) | (header[offset + 1] & 0xffL) << 8 | (header[offset + 2] & 0xffL) << 16
                | (header[offset + 3] & 0xffL) << 24;
        if (length > Integer.MAX_VALUE - HEADER_LENGTH) {
            throw new IllegalArgumentException("map frame of " + length + " bytes is too large");
        }
        return (int) length;
    }

    /** Nothing to free any more (contexts are pooled); kept so that sessions can say they are done. */
    @Override
    public void close() {
    }

    private static byte[] withLength(byte[] frame, int length) {
        frame[0] = (byte) length;
        frame[1] = (byte) (length >>> 8);
        frame[2] = (byte) (length >>> 16);
        frame[3] = (byte) (length >>> 24);
        return frame;
    }
}
