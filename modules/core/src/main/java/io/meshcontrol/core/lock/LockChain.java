package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import java.util.ArrayList;
import java.util.List;

/**
 * The authority's AUM log as this server keeps it: one chain from the genesis checkpoint to the head, each AUM
 * verified against the state before it, and the state at the head. The server never signs: it only accepts what
 * trusted keys signed. Forks are not kept: an AUM must follow the head (a client whose update lost a race syncs and
 * tries again).
 */
public record LockChain(List<Aum> aums, AuthorityState state) {

    public LockChain {
        aums = List.copyOf(aums);
        if (aums.isEmpty()) {
            throw new IllegalArgumentException("a chain starts with its genesis AUM");
        }
    }

    /**
     * The chain a genesis AUM starts: a checkpoint without a parent, signed by keys its own state trusts.
     *
     * @throws MeshException (invalid) when it is not
     */
    public static LockChain start(Aum genesis) {
        if (genesis.kind() != Aum.Kind.CHECKPOINT || genesis.parent() != null) {
            throw MeshException.invalid("the genesis AUM must be a checkpoint without a parent");
        }
        AuthorityState state = genesis.checkpointState();
        state.verifySignatures(genesis);
        return new LockChain(List.of(genesis), state);
    }

    /** The chain stored earlier, checked again from its genesis. */
    public static LockChain replay(List<Aum> stored) {
        LockChain chain = start(stored.getFirst());
        for (Aum aum : stored.subList(1, stored.size())) {
            chain = chain.append(aum);
        }
        return chain;
    }

    public Aum genesis() {
        return aums.getFirst();
    }

    public AumHash head() {
        return aums.getLast().hash();
    }

    public boolean contains(AumHash hash) {
        return indexOf(hash) >= 0;
    }

    private int indexOf(AumHash hash) {
        for (int i = aums.size() - 1; i >= 0; i--) {
            if (aums.get(i).hash().equals(hash)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The chain with {@code aum} after the head.
     *
     * @throws MeshException (invalid) when it does not follow the head, or is not signed by trusted keys, or breaks a
     *     rule of the state
     */
    public LockChain append(Aum aum) {
        if (aum.parent() == null || !aum.parent().equals(head())) {
            throw MeshException.conflict("the AUM " + aum.hash() + " does not follow the head " + head()
                    + ": sync and try again");
        }
        state.verifySignatures(aum);
        List<Aum> next = new ArrayList<>(aums);
        next.add(aum);
        return new LockChain(next, state.apply(aum));
    }

    /** The ancestors this side offers in a sync: the genesis, the oldest AUM it has. */
    public List<AumHash> offeredAncestors() {
        return List.of(genesis().hash());
    }

    /**
     * What a client that offers {@code head} and {@code ancestors} lacks: the AUMs after the newest of them this chain
     * holds (none when its head is ours).
     *
     * @throws MeshException (conflict) when the chain holds none of them: the two have nothing in common
     */
    public List<Aum> missingFor(AumHash clientHead, List<AumHash> ancestors) {
        int at = indexOf(clientHead);
        for (int i = 0; at < 0 && i < ancestors.size(); i++) {
            at = indexOf(ancestors.get(i));
        }
        if (at < 0) {
            throw MeshException.conflict("the offered AUMs have nothing in common with this authority");
        }
        return aums.subList(at + 1, aums.size());
    }
}
