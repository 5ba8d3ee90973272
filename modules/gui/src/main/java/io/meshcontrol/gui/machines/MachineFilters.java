package io.meshcontrol.gui.machines;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The machine list's filters, as {@code GET /api/v1/node} takes them (docs/api.md, "Listing nodes"): the server
 * picks the machines, so the window filters exactly as the console and the API do.
 *
 * @param os an OS as clients name it ({@code linux}); blank: any
 * @param tag a tag ({@code tag:web} or {@code web}); blank: any
 * @param user an owner's name; blank: any
 * @param keyExpiring the node key expires within 7 days (and has not yet)
 */
public record MachineFilters(String os, String tag, String user, boolean needsApproval, boolean updateAvailable,
        boolean keyExpiring, boolean exitNode, boolean subnetRouter) {

    public static final MachineFilters NONE = new MachineFilters("", "", "", false, false, false, false, false);

    /** The query parameters; empty for no filter (then the plain list is read). */
    public Map<String, String> query() {
        Map<String, String> query = new LinkedHashMap<>();
        put(query, "os", os);
        put(query, "tag", tag);
        put(query, "user", user);
        flag(query, "needsApproval", needsApproval);
        flag(query, "updateAvailable", updateAvailable);
        flag(query, "keyExpiring", keyExpiring);
        flag(query, "exitNode", exitNode);
        flag(query, "subnetRouter", subnetRouter);
        return query;
    }

    private static void put(Map<String, String> query, String name, String value) {
        if (value != null && !value.isBlank()) {
            query.put(name, value.strip());
        }
    }

    private static void flag(Map<String, String> query, String name, boolean on) {
        if (on) {
            query.put(name, "true");
        }
    }
}
