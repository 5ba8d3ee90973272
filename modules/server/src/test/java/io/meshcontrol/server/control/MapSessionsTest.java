package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class MapSessionsTest {

    @Test
    void theBatchWindowGrowsWithTheStreamsUpToAQuarterSecond() {
        assertEquals(Duration.ofMillis(50), MapSessions.batchWindow(0));
        assertEquals(Duration.ofMillis(50), MapSessions.batchWindow(400));
        assertEquals(Duration.ofMillis(125), MapSessions.batchWindow(1_000));
        assertEquals(Duration.ofMillis(250), MapSessions.batchWindow(2_000));
        assertEquals(Duration.ofMillis(250), MapSessions.batchWindow(10_000));
    }
}
