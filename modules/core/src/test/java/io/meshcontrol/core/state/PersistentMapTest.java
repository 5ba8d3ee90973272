package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PersistentMapTest {

    /** A key whose hash is chosen, to force collisions. */
    private record Colliding(int hash, String name) {
        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Test
    void behavesLikeAHashMapUnderRandomChangesAndOldVersionsStayAsTheyWere() {
        Random random = new Random(42);
        Map<Long, Integer> expected = new HashMap<>();
        PersistentMap<Long, Integer> map = PersistentMap.empty();
        List<PersistentMap<Long, Integer>> versions = new ArrayList<>();
        List<Map<Long, Integer>> copies = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            long key = random.nextInt(3_000);
            if (random.nextInt(3) == 0) {
                expected.remove(key);
                map = map.without(key);
            } else {
                expected.put(key, i);
                map = map.with(key, i);
            }
            if (i % 2_000 == 0) {
                versions.add(map);
                copies.add(new HashMap<>(expected));
            }
        }
        assertEquals(expected, map.asMap());
        assertEquals(expected.size(), map.size());
        for (int v = 0; v < versions.size(); v++) {
            assertEquals(copies.get(v), versions.get(v).asMap(), "version " + v + " is unchanged");
        }
    }

    @Test
    void keysWithEqualHashesLiveSideBySide() {
        Colliding a = new Colliding(7, "a");
        Colliding b = new Colliding(7, "b");
        Colliding c = new Colliding(7 + (1 << 20), "c");
        PersistentMap<Colliding, String> map = PersistentMap.<Colliding, String>empty().with(a, "A").with(b, "B").with(c, "C");
        assertEquals(Map.of(a, "A", b, "B", c, "C"), map.asMap());
        PersistentMap<Colliding, String> withoutA = map.without(a);
        assertNull(withoutA.get(a));
        assertEquals("B", withoutA.get(b));
        assertEquals("C", withoutA.get(c));
        assertEquals(0, withoutA.without(b).without(c).size());
    }

    @Test
    void anUnchangingUpdateReturnsTheSameMap() {
        Integer value = 1;
        PersistentMap<Long, Integer> map = PersistentMap.<Long, Integer>empty().with(1L, value);
        assertSame(map, map.with(1L, value));
        assertSame(map, map.without(2L));
    }

    @Test
    void iterationOrderDependsOnlyOnTheKeys() {
        PersistentMap<Long, String> forward = PersistentMap.empty();
        PersistentMap<Long, String> backward = PersistentMap.empty();
        for (long i = 0; i < 500; i++) {
            forward = forward.with(i, "x");
            backward = backward.with(499 - i, "x");
        }
        assertEquals(new ArrayList<>(forward.asMap().keySet()), new ArrayList<>(backward.asMap().keySet()));
    }
}
