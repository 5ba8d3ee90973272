package io.meshcontrol.core.netmap.session;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * A set of non-negative ids as bits, in blocks of 4,096 allocated where ids are: a map session's set of the peers it
 * has sent costs about one bit per node of the network (ids are handed out in sequence), where a set of boxed longs
 * would cost some 50 bytes per peer, per session. Not thread-safe.
 */
public final class IdSet {

    private static final int BLOCK_BITS = 12;
    private static final int WORDS = (1 << BLOCK_BITS) / 64;

    /** Block numbers (id >>> 12), ascending, and their bits. */
    private long[] blockIds = new long[0];
    private long[][] blocks = new long[0][];
    private int size;

    public boolean contains(long id) {
        int block = find(id >>> BLOCK_BITS);
        return block >= 0 && (blocks[block][word(id)] & bit(id)) != 0;
    }

    /** Adds; true when it was not there. */
    public boolean add(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("negative id " + id);
        }
        int block = find(id >>> BLOCK_BITS);
        if (block < 0) {
            block = -block - 1;
            blockIds = insert(blockIds, block, id >>> BLOCK_BITS);
            long[][] grown = new long[blocks.length + 1][];
            System.arraycopy(blocks, 0, grown, 0, block);
            grown[block] = new long[WORDS];
            System.arraycopy(blocks, block, grown, block + 1, blocks.length - block);
            blocks = grown;
        }
        long[] words = blocks[block];
        if ((words[word(id)] & bit(id)) != 0) {
            return false;
        }
        words[word(id)] |= bit(id);
        size++;
        return true;
    }

    /** Removes; true when it was there. */
    public boolean remove(long id) {
        int block = find(id >>> BLOCK_BITS);
        if (block < 0 || (blocks[block][word(id)] & bit(id)) == 0) {
            return false;
        }
        blocks[block][word(id)] &= ~bit(id);
        size--;
        return true;
    }

    public int size() {
        return size;
    }

    public void clear() {
        blockIds = new long[0];
        blocks = new long[0][];
        size = 0;
    }

    /** Every id, ascending. */
    public void forEach(LongConsumer action) {
        for (int b = 0; b < blocks.length; b++) {
            long base = blockIds[b] << BLOCK_BITS;
            long[] words = blocks[b];
            for (int w = 0; w < WORDS; w++) {
                long bits = words[w];
                while (bits != 0) {
                    int low = Long.numberOfTrailingZeros(bits);
                    action.accept(base + w * 64L + low);
                    bits &= bits - 1;
                }
            }
        }
    }

    private int find(long blockId) {
        return Arrays.binarySearch(blockIds, blockId);
    }

    private static int word(long id) {
        return (int) ((id >>> 6) & (WORDS - 1));
    }

    private static long bit(long id) {
        return 1L << (id & 63);
    }

    private static long[] insert(long[] array, int index, long value) {
        long[] grown = new long[array.length + 1];
        System.arraycopy(array, 0, grown, 0, index);
        grown[index] = value;
        System.arraycopy(array, index, grown, index + 1, array.length - index);
        return grown;
    }
}
