package io.meshcontrol.core.testing;

import io.meshcontrol.core.netmap.frames.MapFrameReader;
import io.meshcontrol.core.wire.MapResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** What a map stream under test wrote: a thread-safe sink for the session, read back as whole map messages. */
public final class MapStreamCapture {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** The sink to hand to the session; it writes on its own thread while the test reads. */
    public OutputStream sink() {
        return new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (bytes) {
                    bytes.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (bytes) {
                    bytes.write(b, off, len);
                }
            }
        };
    }

    /** The messages written so far; a frame still being written is left for the next look. */
    public List<MapResponse> messages() throws Exception {
        byte[] written;
        synchronized (bytes) {
            written = bytes.toByteArray();
        }
        MapFrameReader reader = new MapFrameReader(new ByteArrayInputStream(written), true);
        List<MapResponse> messages = new ArrayList<>();
        try {
            for (MapResponse message = reader.next(); message != null; message = reader.next()) {
                messages.add(message);
            }
        } catch (EOFException partialFrame) {
            // the last frame is not complete yet
        }
        return messages;
    }

    /** Waits (up to 20 s) until the messages written so far satisfy {@code condition}, and returns them. */
    public List<MapResponse> await(Predicate<List<MapResponse>> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            List<MapResponse> messages = messages();
            if (condition.test(messages)) {
                return messages;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the stream did not deliver the expected messages within 20 s");
    }
}
