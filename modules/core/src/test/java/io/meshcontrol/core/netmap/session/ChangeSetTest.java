package io.meshcontrol.core.netmap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChangeSetTest {

    @Test
    void mergingKeepsEveryNodeUserAndFlagOnceWithoutCopyingTheNodes() {
        ChangeSet first = new ChangeSet(Set.of(1L, 2L), Set.of(7L), false, false);
        ChangeSet second = new ChangeSet(Set.of(2L, 3L), Set.of(), false, true);
        ChangeSet third = new ChangeSet(Set.of(), Set.of(8L), true, false);
        ChangeSet merged = ChangeSet.mergeAll(List.of(first, second, third));

        assertTrue(merged.nodeIds().contains(3L));
        assertFalse(merged.nodeIds().contains(4L));
        assertEquals(4, merged.nodeCountAtMost(), "the parts' sizes, before any union is built");
        assertEquals(Set.of(1L, 2L, 3L), new HashSet<>(merged.nodeIds()));
        assertEquals(3, merged.nodeIds().size());
        assertEquals(new ChangeSet(Set.of(1L, 2L, 3L), Set.of(7L, 8L), true, true), merged);
        assertThrows(UnsupportedOperationException.class, () -> merged.nodeIds().add(5L));
    }

    @Test
    void aMergeOfMergesAsksEachOriginalSetOnce() {
        ChangeSet one = new ChangeSet(Set.of(1L), Set.of(), false);
        ChangeSet two = new ChangeSet(Set.of(2L), Set.of(), false);
        ChangeSet three = new ChangeSet(Set.of(3L), Set.of(), false);
        ChangeSet nested = ChangeSet.mergeAll(List.of(ChangeSet.mergeAll(List.of(one, two)), three));
        assertEquals(3, nested.nodeCountAtMost());
        assertEquals(Set.of(1L, 2L, 3L), nested.nodeIds());
        assertSame(one.nodeIds(), ChangeSet.mergeAll(List.of(one, ChangeSet.policyChanged())).nodeIds(),
                "a merge with sets naming no node is the one set of ids");
    }
}
