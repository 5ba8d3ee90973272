package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NodeIdIndexesTest {

    /** Consecutive ids (as the server hands them out) and scattered ones, through several growths of the table. */
    @Test
    void findsEveryIdAddedAndNoOther() {
        NodeIdIndexes indexes = new NodeIdIndexes(4);
        Map<Long, Integer> expected = new HashMap<>();
        Random random = new Random(22);
        for (int i = 0; i < 20_000; i++) {
            long id = i < 10_000 ? i + 1 : Math.abs(random.nextLong() >> 1);
            if (expected.putIfAbsent(id, i) == null) {
                indexes.put(id, i);
            }
        }
        assertEquals(expected.size(), indexes.size());
        expected.forEach((id, index) -> assertEquals(index, indexes.get(id), "id " + id));
        assertEquals(-1, indexes.get(0));
        assertEquals(-1, indexes.get(10_001));
        assertFalse(indexes.contains(-5));
        assertTrue(indexes.contains(10_000));
    }

    /** A join's index copies the one before it; adding to the copy leaves the original as it was. */
    @Test
    void aCopyIsIndependentOfItsOriginal() {
        NodeIdIndexes original = new NodeIdIndexes(2);
        original.put(7, 0);
        original.put(9, 1);
        NodeIdIndexes copy = new NodeIdIndexes(original);
        for (int i = 0; i < 100; i++) {
            copy.put(100 + i, 2 + i);
        }
        assertEquals(2, original.size());
        assertEquals(-1, original.get(150));
        assertEquals(52, copy.get(150));
        assertEquals(1, copy.get(9));
    }

    @Test
    void anIdIsIndexedOnce() {
        NodeIdIndexes indexes = new NodeIdIndexes(2);
        indexes.put(3, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> indexes.put(3, 1));
        assertEquals("id 3 is already indexed", e.getMessage());
        assertEquals(0, indexes.get(3));
    }
}
