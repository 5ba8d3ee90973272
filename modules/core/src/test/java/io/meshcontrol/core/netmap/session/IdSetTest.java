package io.meshcontrol.core.netmap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.netmap.WireNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class IdSetTest {

    @Test
    void agreesWithATreeSetIncludingFarApartIds() {
        Random random = new Random(7);
        IdSet set = new IdSet();
        TreeSet<Long> expected = new TreeSet<>();
        for (int i = 0; i < 50_000; i++) {
            long id = random.nextBoolean() ? random.nextInt(10_000) : WireNodes.TAGGED_DEVICES_USER_ID + random.nextInt(50);
            if (random.nextInt(4) == 0) {
                assertEquals(expected.remove(id), set.remove(id));
            } else {
                assertEquals(expected.add(id), set.add(id));
            }
        }
        assertEquals(expected.size(), set.size());
        List<Long> ids = new ArrayList<>();
        set.forEach(ids::add);
        assertEquals(new ArrayList<>(expected), ids, "ascending");
        assertTrue(set.contains(expected.first()));
        set.clear();
        assertFalse(set.contains(expected.first()));
        assertEquals(0, set.size());
    }
}
