package io.meshcontrol.core.netmap.encoding;

import java.util.ArrayList;
import java.util.List;

/**
 * The blocks of peers met while one map message is written as JSON, for {@link MapFrames} to splice in compressed:
 * each is written as a placeholder, a NUL byte, its index in decimal and another NUL. JSON as Jackson writes it
 * never holds a raw NUL (it escapes control characters in strings), so the placeholders cannot be confused with
 * content. Passed to the serializer as a context attribute keyed by this class; one per message.
 */
public final class BlockSlots {

    public static final byte MARK = 0;

    private final List<EncodedNodes.Block> blocks = new ArrayList<>();

    public String placeholder(EncodedNodes.Block block) {
        blocks.add(block);
        return "\u0000" + (blocks.size() - 1) + "\u0000";
    }

    public EncodedNodes.Block get(int index) {
        return blocks.get(index);
    }

    public boolean isEmpty() {
        return blocks.isEmpty();
    }
}
