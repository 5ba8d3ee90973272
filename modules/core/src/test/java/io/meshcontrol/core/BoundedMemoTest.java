package io.meshcontrol.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A value is computed once per key and kept; a full memo forgets everything and keeps the next; failures keep nothing. */
class BoundedMemoTest {

    @Test
    void aKeptValueIsNotComputedAgain() {
        BoundedMemo<String, StringBuilder> memo = new BoundedMemo<>(10);
        AtomicInteger computed = new AtomicInteger();
        StringBuilder first = memo.get("a", key -> {
            computed.incrementAndGet();
            return new StringBuilder(key);
        });
        assertSame(first, memo.get("a", key -> new StringBuilder("again")));
        assertEquals(1, computed.get());
        assertEquals(1, memo.size());
    }

    @Test
    void whenFullEverythingIsForgottenAndTheNextIsKept() {
        BoundedMemo<Integer, Integer> memo = new BoundedMemo<>(3);
        for (int i = 0; i < 3; i++) {
            memo.get(i, key -> key * 2);
        }
        assertEquals(3, memo.size());
        assertEquals(8, memo.get(4, key -> key * 2));
        assertEquals(1, memo.size());
        AtomicInteger computed = new AtomicInteger();
        memo.get(0, key -> computed.incrementAndGet());
        assertEquals(1, computed.get(), "a forgotten key is computed again");
    }

    @Test
    void aComputationThatThrowsKeepsNothingAndTheCallerGetsItsException() {
        BoundedMemo<String, String> memo = new BoundedMemo<>(10);
        IOException thrown = assertThrows(IOException.class, () -> memo.get("a", key -> {
            throw new IOException("no " + key);
        }));
        assertEquals("no a", thrown.getMessage());
        assertEquals(0, memo.size());
    }

    @Test
    void theLimitIsAtLeastOne() {
        assertThrows(IllegalArgumentException.class, () -> new BoundedMemo<String, String>(0));
    }
}
