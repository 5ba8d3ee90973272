package io.meshcontrol.core.state;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable hash map whose updates share structure with the map they came from (a hash array mapped trie, five
 * bits of the hash per level): putting or removing one entry copies one short path, O(log32 n), instead of the whole
 * map. This is what lets every node change produce a new network snapshot without copying all nodes.
 *
 * <p>Iteration order is fixed by the keys' hashes (the same keys always come in the same order), not insertion order.
 * No {@code null} keys or values.
 */
final class PersistentMap<K, V> {

    private static final int BITS = 5;
    private static final int MASK = (1 << BITS) - 1;
    /** Below this depth the 32 hash bits are used up; equal hashes then share a collision node. */
    private static final int MAX_SHIFT = 30;

    private static final PersistentMap<?, ?> EMPTY = new PersistentMap<>(new Branch(0, new Object[0]), 0);

    private final Node root;
    private final int size;

    private PersistentMap(Node root, int size) {
        this.root = root;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    static <K, V> PersistentMap<K, V> empty() {
        return (PersistentMap<K, V>) EMPTY;
    }

    static <K, V> PersistentMap<K, V> copyOf(Map<K, V> entries) {
        PersistentMap<K, V> map = empty();
        for (Map.Entry<K, V> entry : entries.entrySet()) {
            map = map.with(entry.getKey(), entry.getValue());
        }
        return map;
    }

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    V get(Object key) {
        return key == null ? null : (V) root.find(key, hash(key), 0);
    }

    /** This map with {@code key} mapped to {@code value}; this map itself when it already held exactly that. */
    PersistentMap<K, V> with(K key, V value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        boolean[] added = new boolean[1];
        Node updated = root.with(key, value, hash(key), 0, added);
        return updated == root ? this : new PersistentMap<>(updated, added[0] ? size + 1 : size);
    }

    /** This map without {@code key}; this map itself when it did not hold it. */
    PersistentMap<K, V> without(Object key) {
        if (key == null) {
            return this;
        }
        Node updated = root.without(key, hash(key), 0);
        if (updated == root) {
            return this;
        }
        return new PersistentMap<>(updated == null ? empty().root : updated, size - 1);
    }

    /** A read-only {@link Map} view (no copy). */
    Map<K, V> asMap() {
        return new View<>(this);
    }

    private static int hash(Object key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    private sealed interface Node permits Branch, Collision {
        Object find(Object key, int hash, int shift);

        Node with(Object key, Object value, int hash, int shift, boolean[] added);

        /** Null when the node becomes empty. */
        Node without(Object key, int hash, int shift);
    }

    /**
     * A trie level: {@code bitmap} says which of the 32 slots are used; {@code array} holds two cells per used slot,
     * {@code key, value} for an entry or {@code null, child} for a deeper level.
     */
    private record Branch(int bitmap, Object[] array) implements Node {

        @Override
        public Object find(Object key, int hash, int shift) {
            int bit = 1 << ((hash >>> shift) & MASK);
            if ((bitmap & bit) == 0) {
                return null;
            }
            int index = 2 * Integer.bitCount(bitmap & (bit - 1));
            Object k = array[index];
            if (k == null) {
                return ((Node) array[index + 1]).find(key, hash, shift + BITS);
            }
            return key.equals(k) ? array[index + 1] : null;
        }

        @Override
        public Node with(Object key, Object value, int hash, int shift, boolean[] added) {
            int bit = 1 << ((hash >>> shift) & MASK);
            int index = 2 * Integer.bitCount(bitmap & (bit - 1));
            if ((bitmap & bit) == 0) {
                Object[] grown = new Object[array.length + 2];
                System.arraycopy(array, 0, grown, 0, index);
                grown[index] = key;
                grown[index + 1] = value;
                System.arraycopy(array, index, grown, index + 2, array.length - index);
                added[0] = true;
                return new Branch(bitmap | bit, grown);
            }
            Object k = array[index];
            Object v = array[index + 1];
            if (k == null) {
                Node child = (Node) v;
                Node updated = child.with(key, value, hash, shift + BITS, added);
                return updated == child ? this : replace(index + 1, null, updated);
            }
            if (key.equals(k)) {
                return v == value ? this : replace(index + 1, k, value);
            }
            added[0] = true;
            return replace(index + 1, null, pair(k, v, hash(k), key, value, hash, shift + BITS));
        }

        @Override
        public Node without(Object key, int hash, int shift) {
            int bit = 1 << ((hash >>> shift) & MASK);
            if ((bitmap & bit) == 0) {
                return this;
            }
            int index = 2 * Integer.bitCount(bitmap & (bit - 1));
            Object k = array[index];
            if (k == null) {
                Node child = (Node) array[index + 1];
                Node updated = child.without(key, hash, shift + BITS);
                if (updated == child) {
                    return this;
                }
                if (updated != null) {
                    return replace(index + 1, null, updated);
                }
            } else if (!key.equals(k)) {
                return this;
            }
            if (bitmap == bit) {
                return null;
            }
            Object[] shrunk = new Object[array.length - 2];
            System.arraycopy(array, 0, shrunk, 0, index);
            System.arraycopy(array, index + 2, shrunk, index, array.length - index - 2);
            return new Branch(bitmap & ~bit, shrunk);
        }

        private Branch replace(int valueIndex, Object key, Object value) {
            Object[] copy = array.clone();
            copy[valueIndex - 1] = key;
            copy[valueIndex] = value;
            return new Branch(bitmap, copy);
        }

        private static Node pair(Object k1, Object v1, int h1, Object k2, Object v2, int h2, int shift) {
            if (shift > MAX_SHIFT) { // all 32 bits equal
                return new Collision(h1, new Object[] {k1, v1, k2, v2});
            }
            int i1 = (h1 >>> shift) & MASK;
            int i2 = (h2 >>> shift) & MASK;
            if (i1 == i2) {
                return new Branch(1 << i1, new Object[] {null, pair(k1, v1, h1, k2, v2, h2, shift + BITS)});
            }
            return new Branch((1 << i1) | (1 << i2), i1 < i2 ? new Object[] {k1, v1, k2, v2} : new Object[] {k2, v2, k1, v1});
        }
    }

    /** Entries whose whole hashes are equal: a short list, {@code key, value} pairs. */
    private record Collision(int hash, Object[] array) implements Node {

        @Override
        public Object find(Object key, int hash, int shift) {
            int index = indexOf(key);
            return index < 0 ? null : array[index + 1];
        }

        @Override
        public Node with(Object key, Object value, int hash, int shift, boolean[] added) {
            int index = indexOf(key);
            if (index >= 0) {
                if (array[index + 1] == value) {
                    return this;
                }
                Object[] copy = array.clone();
                copy[index + 1] = value;
                return new Collision(this.hash, copy);
            }
            Object[] grown = Arrays.copyOf(array, array.length + 2);
            grown[array.length] = key;
            grown[array.length + 1] = value;
            added[0] = true;
            return new Collision(this.hash, grown);
        }

        @Override
        public Node without(Object key, int hash, int shift) {
            int index = indexOf(key);
            if (index < 0) {
                return this;
            }
            if (array.length == 2) {
                return null;
            }
            Object[] shrunk = new Object[array.length - 2];
            System.arraycopy(array, 0, shrunk, 0, index);
            System.arraycopy(array, index + 2, shrunk, index, array.length - index - 2);
            return new Collision(this.hash, shrunk);
        }

        private int indexOf(Object key) {
            for (int i = 0; i < array.length; i += 2) {
                if (key.equals(array[i])) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Depth-first over the trie, one level's array per stack frame. */
    private static final class Entries<K, V> implements Iterator<Map.Entry<K, V>> {
        private final Deque<Object[]> arrays = new ArrayDeque<>();
        private final Deque<Integer> positions = new ArrayDeque<>();
        private Map.Entry<K, V> next;

        Entries(Node root) {
            push(root);
            advance();
        }

        private void push(Node node) {
            arrays.push(node instanceof Branch branch ? branch.array() : ((Collision) node).array());
            positions.push(0);
        }

        @SuppressWarnings("unchecked")
        private void advance() {
            next = null;
            while (!arrays.isEmpty()) {
                Object[] array = arrays.peek();
                int position = positions.pop();
                if (position >= array.length) {
                    arrays.pop();
                    continue;
                }
                positions.push(position + 2);
                Object key = array[position];
                if (key == null) {
                    push((Node) array[position + 1]);
                } else {
                    next = new AbstractMap.SimpleImmutableEntry<>((K) key, (V) array[position + 1]);
                    return;
                }
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Map.Entry<K, V> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            Map.Entry<K, V> result = next;
            advance();
            return result;
        }
    }

    private static final class View<K, V> extends AbstractMap<K, V> {
        private final PersistentMap<K, V> map;

        View(PersistentMap<K, V> map) {
            this.map = map;
        }

        @Override
        public V get(Object key) {
            return map.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return map.get(key) != null;
        }

        @Override
        public int size() {
            return map.size;
        }

        @Override
        public Set<Map.Entry<K, V>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<K, V>> iterator() {
                    return new Entries<>(map.root);
                }

                @Override
                public int size() {
                    return map.size;
                }
            };
        }
    }
}
