package io.meshcontrol.core;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Values computed once per key and kept, at most {@code limit} of them: when full, everything is forgotten and the
 * memo fills again with the keys still in use. For keys anyone can make up (machine keys in handshakes) or that each
 * compilation makes anew (parsed addresses, encoded source lists), where keeping the recent ones is what matters and
 * an eviction policy would cost more than it saves. Thread-safe; two threads may compute the same value at once
 * (outside any lock), so a computation must give equal values for equal keys.
 *
 * @param <K> keys, compared by equality
 * @param <V> values, shared by every caller: never changed after they are kept
 */
public final class BoundedMemo<K, V> {

    /** How a value is computed; may throw the caller's own checked exception. */
    @FunctionalInterface
    public interface Computation<K, V, X extends Exception> {
        V of(K key) throws X;
    }

    private final ConcurrentHashMap<K, V> kept = new ConcurrentHashMap<>();
    private final int limit;

    /** @param limit values kept at most; at least 1 */
    public BoundedMemo(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    /** The value kept for {@code key}, or the one computed now and kept; nothing is kept when the computation throws. */
    public <X extends Exception> V get(K key, Computation<? super K, ? extends V, X> computation) throws X {
        V value = kept.get(key);
        if (value == null) {
            value = computation.of(key);
            if (kept.size() >= limit) {
                kept.clear();
            }
            kept.put(key, value);
        }
        return value;
    }

    /** Values kept now. */
    public int size() {
        return kept.size();
    }
}
