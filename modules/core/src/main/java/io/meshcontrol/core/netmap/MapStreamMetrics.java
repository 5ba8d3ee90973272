package io.meshcontrol.core.netmap;

/**
 * What map streams report as they write: the server counts these (Prometheus); core only says when they happen.
 * Called on the streams' own threads, concurrently.
 */
public interface MapStreamMetrics {

    /** Reports nothing (tests, tools). */
    MapStreamMetrics NONE = new MapStreamMetrics() {
        @Override
        public void fullMapWritten(long requestNanos) {
        }

        @Override
        public void deltaWritten() {
        }

        @Override
        public void keepAliveWritten() {
        }
    };

    /**
     * A full map was handed to the connection (the first message of a stream, or a single map).
     *
     * @param requestNanos when its request was read ({@link System#nanoTime()})
     */
    void fullMapWritten(long requestNanos);

    void deltaWritten();

    void keepAliveWritten();
}
