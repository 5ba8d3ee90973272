package io.meshcontrol.core.policy;

import java.util.Arrays;

/**
 * Node ids to their positions in a {@link NodeIndex}: open addressing over primitive arrays. Every map stream asks it
 * twice per peer for a full map (100 million times in a mass reconnect at N = 10,000), where a {@code HashMap} of
 * boxed keys was a fifth of the time of building the map; and each join copies it, now two array copies. Ids are
 * added, never removed. Not thread-safe while being filled; read-only after.
 */
final class NodeIdIndexes {

    private static final int ABSENT = -1;
    /** Fibonacci hashing spreads consecutive ids (how they are handed out) over the table. */
    private static final long SPREAD = 0x9E3779B97F4A7C15L;

    private long[] ids;
    private int[] indexes;
    private int size;
    private int shift;

    NodeIdIndexes(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        allocate(capacity);
    }

    NodeIdIndexes(NodeIdIndexes other) {
        ids = other.ids.clone();
        indexes = other.indexes.clone();
        size = other.size;
        shift = other.shift;
    }

    /** The index of {@code id}, or -1. */
    int get(long id) {
        int mask = ids.length - 1;
        for (int slot = slot(id); ; slot = (slot + 1) & mask) {
            int index = indexes[slot];
            if (index == ABSENT || ids[slot] == id) {
                return index;
            }
        }
    }

    boolean contains(long id) {
        return get(id) != ABSENT;
    }

    /** Adds {@code id} at a non-negative {@code index}; the id must not be here yet. */
    void put(long id, int index) {
        if (index < 0) {
            throw new IllegalArgumentException("negative index " + index);
        }
        if ((size + 1) * 2 > ids.length) {
            grow();
        }
        int mask = ids.length - 1;
        int slot = slot(id);
        while (indexes[slot] != ABSENT) {
            if (ids[slot] == id) {
                throw new IllegalArgumentException("id " + id + " is already indexed");
            }
            slot = (slot + 1) & mask;
        }
        ids[slot] = id;
        indexes[slot] = index;
        size++;
    }

    int size() {
        return size;
    }

    private int slot(long id) {
        return (int) ((id * SPREAD) >>> shift);
    }

    private void allocate(int capacity) {
        ids = new long[capacity];
        indexes = new int[capacity];
        Arrays.fill(indexes, ABSENT);
        shift = Long.numberOfLeadingZeros(capacity - 1L);
        size = 0;
    }

    private void grow() {
        long[] oldIds = ids;
        int[] oldIndexes = indexes;
        allocate(ids.length * 2);
        for (int slot = 0; slot < oldIds.length; slot++) {
            if (oldIndexes[slot] != ABSENT) {
                put(oldIds[slot], oldIndexes[slot]);
            }
        }
    }
}
