package io.meshcontrol.core.netmap.frames;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A frame in pieces: written as the pieces one after the other, in one write where the output takes them so. */
class MapFrameTest {

    private final MapFrame frame = new MapFrame(List.of(new byte[] {3, 0, 0, 0}, new byte[] {'a', 'b'},
            new byte[] {'c'}), 7);

    @Test
    void aPlainOutputGetsThePiecesOneAfterTheOther() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        frame.writeTo(out);
        assertArrayEquals(new byte[] {3, 0, 0, 0, 'a', 'b', 'c'}, out.toByteArray());
        assertArrayEquals(out.toByteArray(), frame.bytes());
    }

    @Test
    void aGatheringOutputGetsThePiecesThemselvesInOneWrite() throws Exception {
        class Gathering extends ByteArrayOutputStream implements MapFrame.Output {
            final List<List<byte[]>> writes = new ArrayList<>();
            int flushes;

            @Override
            public void write(List<byte[]> pieces) {
                writes.add(pieces);
            }

            @Override
            public void flush() {
                flushes++;
            }
        }
        Gathering out = new Gathering();
        frame.writeTo(out);
        assertEquals(1, out.writes.size());
        for (int i = 0; i < frame.pieces().size(); i++) {
            assertSame(frame.pieces().get(i), out.writes.getFirst().get(i), "not copied");
        }
        assertEquals(0, out.size(), "nothing through the byte-wise write");
        assertEquals(1, out.flushes);
    }

    @Test
    void aFrameOfOneArrayIsThatArray() {
        byte[] whole = {1, 0, 0, 0, 'x'};
        assertSame(whole, MapFrame.of(whole).bytes());
        assertEquals(5, MapFrame.of(whole).length());
    }
}
