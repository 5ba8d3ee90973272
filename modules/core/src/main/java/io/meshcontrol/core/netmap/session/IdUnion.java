package io.meshcontrol.core.netmap.session;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The node ids of several change sets, read without copying them: {@link #contains} asks each part, and only
 * iterating or sizing builds the union (once). A stream that fell behind merges the batches it missed; under
 * autogroup:self such a batch names thousands of nodes in a reconnect while the stream looks up its fifty, and
 * copying the thousands into one set for each of 10,000 streams was an eighth of the reconnect's CPU.
 * Read-only. Made and read by one map stream's thread.
 */
final class IdUnion extends AbstractSet<Long> {

    private final List<Set<Long>> parts;
    private Set<Long> union;

    private IdUnion(List<Set<Long>> parts) {
        this.parts = parts;
    }

    /** The union of {@code sets}, flattening unions among them; none of them may change afterwards. */
    static Set<Long> of(List<Set<Long>> sets) {
        List<Set<Long>> parts = new ArrayList<>();
        for (Set<Long> set : sets) {
            if (set instanceof IdUnion nested) {
                parts.addAll(nested.parts);
            } else if (!set.isEmpty()) {
                parts.add(set);
            }
        }
        return parts.size() == 1 ? parts.getFirst() : new IdUnion(List.copyOf(parts));
    }

    /** The sum of the parts' sizes: at least the union's, without building it. */
    int sizeAtMost() {
        int size = 0;
        for (Set<Long> part : parts) {
            size += part.size();
        }
        return size;
    }

    @Override
    public boolean contains(Object id) {
        for (Set<Long> part : parts) {
            if (part.contains(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean isEmpty() {
        return parts.isEmpty();
    }

    @Override
    public Iterator<Long> iterator() {
        return union().iterator();
    }

    @Override
    public int size() {
        return union().size();
    }

    private Set<Long> union() {
        if (union == null) {
            Set<Long> all = new HashSet<>();
            parts.forEach(all::addAll);
            union = Collections.unmodifiableSet(all);
        }
        return union;
    }
}
