package io.meshcontrol.gui.machines;

import java.util.List;

/**
 * What {@code POST /api/v1/node/bulk} can do to the selected machines, with the question asked before the
 * destructive ones (it says what will happen, to how many and which).
 */
public enum BulkAction {
    APPROVE("approve", "Approve", false),
    EXPIRE("expire", "Expire keys", true),
    DISABLE_KEY_EXPIRY("disable-key-expiry", "Keys never expire", false),
    ADD_TAGS("add-tags", "Add tags", false),
    REMOVE_TAGS("remove-tags", "Remove tags", true),
    DELETE("delete", "Delete", true);

    private final String wire;
    private final String label;
    private final boolean destructive;

    BulkAction(String wire, String label, boolean destructive) {
        this.wire = wire;
        this.label = label;
        this.destructive = destructive;
    }

    public String wire() {
        return wire;
    }

    public String label() {
        return label;
    }

    /** Asked first: it cuts machines off or removes something. */
    public boolean destructive() {
        return destructive;
    }

    public boolean takesTags() {
        return this == ADD_TAGS || this == REMOVE_TAGS;
    }

    /** The confirmation's text: what happens to which machines. */
    public String question(List<String> names, List<String> tags) {
        String which = count(names.size()) + " (" + shortList(names) + ")";
        return switch (this) {
            case APPROVE -> "Approve " + which + "? They join the network.";
            case EXPIRE -> "Expire the keys of " + which + "? Each is cut off until it logs in again.";
            case DISABLE_KEY_EXPIRY -> "Let the keys of " + which + " never expire?";
            case ADD_TAGS -> "Add " + String.join(", ", tags) + " to " + which + "?";
            case REMOVE_TAGS -> "Remove " + String.join(", ", tags) + " from " + which
                    + "? The policy's rules for those tags stop applying to them.";
            case DELETE -> "Delete " + which + "? They are removed from the network and must join again to come back.";
        };
    }

    static String count(int machines) {
        return machines == 1 ? "1 machine" : machines + " machines";
    }

    private static String shortList(List<String> names) {
        return names.size() <= 5 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
    }
}
