package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import java.util.ArrayList;
import java.util.List;

/**
 * The items of a bulk change that cannot be changed, gathered before anything is written: a bulk change is all or
 * nothing, and its refusal names every offending item, not only the first.
 */
final class BulkRefusals {

    /** How many ids one bulk change takes: one page of the console's lists, far below the writer's bound. */
    static final int MOST_ITEMS = 1000;

    private record Refusal(String item, MeshException cause) {
    }

    private final String noun;
    private final List<Refusal> refusals = new ArrayList<>();

    /** @param noun what the items are, plural ("nodes", "API keys") */
    BulkRefusals(String noun) {
        this.noun = noun;
    }

    /** Refuses an empty list and one longer than {@link #MOST_ITEMS} (400, naming {@code ids}). */
    static void requireSize(List<?> ids) {
        if (ids == null || ids.isEmpty()) {
            throw MeshException.invalid("ids must name at least one item");
        }
        if (ids.size() > MOST_ITEMS) {
            throw MeshException.invalid("ids names " + ids.size() + " items; at most " + MOST_ITEMS
                    + " are changed at once");
        }
    }

    void add(String item, MeshException cause) {
        refusals.add(new Refusal(item, cause));
    }

    /**
     * Throws when any item was refused: with the first refusal's reason (its status), naming every refused item and
     * why, and saying that nothing changed.
     */
    void throwIfAny() {
        if (refusals.isEmpty()) {
            return;
        }
        StringBuilder message = new StringBuilder("nothing was changed; refused " + noun + ": ");
        for (int i = 0; i < refusals.size(); i++) {
            Refusal refusal = refusals.get(i);
            message.append(i == 0 ? "" : "; ").append(refusal.item()).append(" (")
                    .append(refusal.cause().getMessage()).append(')');
        }
        throw new MeshException(refusals.getFirst().cause().reason(), message.toString());
    }
}
