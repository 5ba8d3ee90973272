package io.meshcontrol.gui.screen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class NewestReadTest {

    private final NewestRead reads = new NewestRead();
    private final List<String> shown = new ArrayList<>();

    @Test
    void anOlderAnswerArrivingLastIsNotShown() {
        Consumer<String> older = reads.start().ifNewest(shown::add);
        Consumer<String> newer = reads.start().ifNewest(shown::add);
        newer.accept("after the delivery");
        older.accept("before the delivery");
        assertEquals(List.of("after the delivery"), shown);
    }

    @Test
    void theNewestReadsAnswerAndItsFailureAreBothShown() {
        NewestRead.Read read = reads.start();
        read.<String>ifNewest(shown::add).accept("answer");
        read.<Throwable>ifNewest(failure -> shown.add("failed: " + failure.getMessage()))
                .accept(new IllegalStateException("no server"));
        assertEquals(List.of("answer", "failed: no server"), shown);
    }

    @Test
    void aReadStartedWithNothingToReadDropsTheOneUnderWay() {
        Consumer<String> underWay = reads.start().ifNewest(shown::add);
        reads.start();
        underWay.accept("the webhook no longer selected");
        assertEquals(List.of(), shown);
    }
}
