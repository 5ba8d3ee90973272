package io.meshcontrol.core.netmap.frames;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * One message's frame as the pieces it is written from, one after the other: the 4-byte header, then the body's zstd
 * frames (a full map's kept blocks among them, shared with every other map that carries them) or its plain JSON.
 * Writing the pieces as they are spares a full map of 10,000 peers a copy of 1.6 MB into one array of its own (about
 * 0.4 ms of CPU, and as much garbage, for each of the 10,000 maps of a mass reconnect). Do not modify the pieces.
 *
 * @param length the frame's length in bytes, header included
 */
public record MapFrame(List<byte[]> pieces, int length) {

    /**
     * An output that takes a frame's pieces in one write: the server's map response, which hands each write to its
     * connection's I/O thread and would otherwise do so once per piece.
     */
    public interface Output {
        void write(List<byte[]> pieces) throws IOException;
    }

    public MapFrame {
        pieces = List.copyOf(pieces);
    }

    /** A frame that is one array already. */
    public static MapFrame of(byte[] frame) {
        return new MapFrame(List.of(frame), frame.length);
    }

    /** Writes the pieces, in one write when {@code out} takes them so, and flushes. */
    public void writeTo(OutputStream out) throws IOException {
        if (out instanceof Output gathering) {
            gathering.write(pieces);
        } else {
            for (byte[] piece : pieces) {
                out.write(piece);
            }
        }
        out.flush();
    }

    /** The frame as one array (the pieces joined; the piece itself when there is one). */
    public byte[] bytes() {
        if (pieces.size() == 1) {
            return pieces.getFirst();
        }
        byte[] frame = new byte[length];
        int at = 0;
        for (byte[] piece : pieces) {
            System.arraycopy(piece, 0, frame, at, piece.length);
            at += piece.length;
        }
        return frame;
    }
}
