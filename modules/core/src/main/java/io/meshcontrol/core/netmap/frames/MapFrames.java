package io.meshcontrol.core.netmap.frames;

import io.meshcontrol.core.netmap.encoding.BlockSlots;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.meshcontrol.core.wire.MapRequest;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.WireJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Turns map messages into the frames of a {@code /machine/map} response body: a 4-byte little-endian length, then
 * that many bytes of JSON, zstd-compressed when the request asked for {@code Compress: "zstd"} (usually one zstd
 * frame per message; see {@link #encode} for bodies of several). Real clients always ask, and always decompress.
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

    /**
     * The frame of one message: header and (compressed) JSON. When the message's peers include {@link
     * EncodedNodes.Block}s and the frame is compressed, the body is several zstd frames one after the other: the
     * message's own JSON around the blocks, compressed here, and each block's frame, compressed once and kept by the
     * block for every message that carries it. A zstd decoder that takes a whole body (the vendor's client does,
     * {@code DecodeAll}) returns the frames' contents joined, i.e. the same JSON. Such frames leave out the content
     * size, so that a decoder grows its output as it goes rather than reallocating it exactly at every frame.
     */
    public byte[] encode(MapResponse message) {
        return encodeInPieces(message).bytes();
    }

    /**
     * The frame of one message as {@link #encode} makes it, in the pieces it is made of: a full map's kept blocks are
     * written to the client from the arrays every map that carries them shares, never copied into one of the map's own.
     */
    public MapFrame encodeInPieces(MapResponse message) {
        if (level != null && message.peers() instanceof EncodedNodes peers && peers.hasBlocks()) {
            BlockSlots slots = new BlockSlots();
            byte[] json = WireJson.mapper().writer().withAttribute(BlockSlots.class, slots).writeValueAsBytes(message);
            if (!slots.isEmpty()) {
                return splice(json, slots);
            }
        }
        return MapFrame.of(encodeJson(WireJson.write(message)));
    }

    /** The frame of a message already encoded as JSON (for example one shared by many sessions). */
    public byte[] encodeJson(byte[] json) {
        if (level == null) {
            byte[] frame = new byte[HEADER_LENGTH + json.length];
            System.arraycopy(json, 0, frame, HEADER_LENGTH, json.length);
            return withLength(frame);
        }
        return withLength(compress(json, 0, json.length, true, HEADER_LENGTH));
    }

    /**
     * The body as the JSON between the placeholders, compressed here, and the blocks' kept frames. A block after
     * another element of the list brings the comma before it in its own frame, so between two blocks nothing is
     * compressed: a map under allow-all is the message's head, its run of kept blocks, the viewer's own block as
     * single peers, more kept blocks and the rest of the message, that is three compressions per map whatever N.
     */
    private MapFrame splice(byte[] json, BlockSlots slots) {
        List<byte[]> pieces = new ArrayList<>();
        byte[] header = new byte[HEADER_LENGTH];
        pieces.add(header);
        int from = 0;
        for (int at = 0; at < json.length; at++) {
            if (json[at] != BlockSlots.MARK) {
                continue;
            }
            int end = at + 1;
            while (json[end] != BlockSlots.MARK) {
                end++;
            }
            EncodedNodes.Block block = slots.get(Integer.parseInt(new String(json, at + 1, end - at - 1,
                    StandardCharsets.US_ASCII)));
            // The placeholder is a value of the list: before it is the list's '[' or the comma after another element.
            boolean following = json[at - 1] == ',';
            addCompressed(pieces, json, from, at - from - (following ? 1 : 0));
            pieces.add(blockFrame(block, following));
            from = end + 1;
            at = end;
        }
        addCompressed(pieces, json, from, json.length - from);
        int length = 0;
        for (byte[] piece : pieces) {
            length += piece.length;
        }
        writeLength(header, length - HEADER_LENGTH);
        return new MapFrame(pieces, length);
    }

    /** Adds the frame of {@code json[from, from + length)}, unless that is empty (two blocks side by side). */
    private void addCompressed(List<byte[]> pieces, byte[] json, int from, int length) {
        if (length > 0) {
            pieces.add(compress(json, from, length, false, 0));
        }
    }

    private byte[] blockFrame(EncodedNodes.Block block, boolean following) {
        byte[] frame = block.frame(level, following);
        if (frame == null) {
            byte[] json = block.json(following);
            frame = compress(json, 0, json.length, false, 0);
            block.keep(level, following, frame);
        }
        return frame;
    }

    /** One zstd frame of {@code src[offset, offset + length)}, after {@code headroom} bytes left free. */
    private byte[] compress(byte[] src, int offset, int length, boolean contentSize, int headroom) {
        Deque<ZstdCompressCtx> pool = POOLS.computeIfAbsent(level, l -> new ConcurrentLinkedDeque<>());
        ZstdCompressCtx zstd = pool.pollFirst();
        if (zstd == null) {
            zstd = new ZstdCompressCtx();
            zstd.setLevel(level);
            zstd.setChecksum(false);
        }
        try {
            zstd.setContentSize(contentSize);
            byte[] out = new byte[headroom + Math.toIntExact(Zstd.compressBound(length))];
            int written = zstd.compressByteArray(out, headroom, out.length - headroom, src, offset, length);
            return Arrays.copyOf(out, headroom + written);
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

    /** Writes the header: the frame's length after it. */
    private static byte[] withLength(byte[] frame) {
        writeLength(frame, frame.length - HEADER_LENGTH);
        return frame;
    }

    private static void writeLength(byte[] header, int length) {
        header[0] = (byte) length;
        header[1] = (byte) (length >>> 8);
        header[2] = (byte) (length >>> 16);
        header[3] = (byte) (length >>> 24);
    }
}
