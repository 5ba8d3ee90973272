package io.meshcontrol.server.v1;

import io.meshcontrol.core.wire.HostinfoFields;
import io.meshcontrol.core.wire.WireJson;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The known fields of each node's stored Hostinfo, parsed again only when its text changed: a list of 10,000
 * machines would otherwise parse 10,000 JSON objects on every read, though clients change their Hostinfo rarely.
 * One entry per node id, so it holds at most one text per node; bounded, for the ids of nodes long deleted: past
 * {@link #MOST} entries it starts again.
 */
final class HostinfoFieldsCache {

    private static final int MOST = 100_000;
    private static final HostinfoFields NONE = WireJson.mapper().readValue("{}", HostinfoFields.class);

    private record Parsed(String json, HostinfoFields fields) {
    }

    private final Map<Long, Parsed> parsed = new ConcurrentHashMap<>();

    /** The fields of node {@code id}'s Hostinfo {@code json} as stored (blank or null: none reported). */
    HostinfoFields of(long id, String json) {
        if (json == null || json.isBlank()) {
            return NONE;
        }
        Parsed known = parsed.get(id);
        if (known != null && known.json().equals(json)) {
            return known.fields();
        }
        if (parsed.size() >= MOST) {
            parsed.clear();
        }
        HostinfoFields fields = parse(json);
        parsed.put(id, new Parsed(json, fields));
        return fields;
    }

    /** Without a cache: for a single view. */
    static HostinfoFields parse(String json) {
        return json == null || json.isBlank() ? NONE : WireJson.mapper().readValue(json, HostinfoFields.class);
    }
}
