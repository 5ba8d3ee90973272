package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the batcher flushes: soon after a lone change, at a bounded interval while changes keep coming. */
class MapSessionsTest {

    private static final long MS = 1_000_000;

    @Test
    void theLongestWaitGrowsWithTheStreamsUpToHalfASecond() {
        assertEquals(Duration.ofMillis(50), MapSessions.longestWait(0));
        assertEquals(Duration.ofMillis(50), MapSessions.longestWait(200));
        assertEquals(Duration.ofMillis(250), MapSessions.longestWait(1_000));
        assertEquals(Duration.ofMillis(500), MapSessions.longestWait(2_000));
        assertEquals(Duration.ofMillis(500), MapSessions.longestWait(10_000));
    }

    @Test
    void aLoneChangeIsDueAfterTheQuietTime() {
        assertEquals(0, MapSessions.untilDue(0, 0, 50 * MS, Duration.ofMillis(500)));
    }

    @Test
    void changesThatKeepComingWaitForQuietButNoLongerThanTheLongestWait() {
        assertEquals(50 * MS, MapSessions.untilDue(0, 100 * MS, 100 * MS, Duration.ofMillis(500)),
                "a change just came: 50 ms of quiet");
        assertEquals(20 * MS, MapSessions.untilDue(0, 490 * MS, 480 * MS, Duration.ofMillis(500)),
                "the first change is almost 500 ms old");
        assertEquals(0, MapSessions.untilDue(0, 499 * MS, 500 * MS, Duration.ofMillis(500)));
    }
}
