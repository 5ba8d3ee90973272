package io.meshcontrol.server.v1;

import io.meshcontrol.core.wire.HostinfoFields;
import io.meshcontrol.core.wire.WireJson;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The known fields of stored Hostinfo texts, parsed once per distinct text: a list of 10,000 machines would otherwise
 * parse 10,000 JSON objects on every read, though clients change their Hostinfo rarely. Bounded: when it holds more
 * than {@link #MOST} texts it starts again (old texts of nodes that reported anew are never asked for again).
 */
final class HostinfoFieldsCache {

    private static final int MOST = 50_000;
    private static final HostinfoFields NONE = WireJson.mapper().readValue("{}", HostinfoFields.class);

    private final Map<String, HostinfoFields> parsed = new ConcurrentHashMap<>();

    /** The fields of {@code json} as stored (blank or null: none reported). */
    HostinfoFields of(String json) {
        if (json == null || json.isBlank()) {
            return NONE;
        }
        HostinfoFields fields = parsed.get(json);
        if (fields == null) {
            if (parsed.size() >= MOST) {
                parsed.clear();
            }
            fields = parse(json);
            parsed.put(json, fields);
        }
        return fields;
    }

    /** Without a cache: for a single view. */
    static HostinfoFields parse(String json) {
        return json == null || json.isBlank() ? NONE : WireJson.mapper().readValue(json, HostinfoFields.class);
    }
}
