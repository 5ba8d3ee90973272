package io.meshcontrol.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reports keys the server does not act on yet ({@link ConfigKey.Support}) whose value is not the default. Only a
 * changed value is reported, so a copy of {@code config.yaml.example} (every key at its default) passes quietly.
 */
final class UnsupportedKeys {

    private UnsupportedKeys() {
    }

    /** One warning per such key: {@code svc configtest} and {@code svc serve} print them and go on. */
    static List<String> check(ResolvedValues values) {
        List<String> warnings = new ArrayList<>();
        for (ConfigKey key : values.schema().keys()) {
            if (key.support() == ConfigKey.Support.SUPPORTED
                    || Objects.equals(values.raw(key.path()), key.defaultValue())) {
                continue;
            }
            String where = values.origin(key.path()).map(variable -> " (set by " + variable + ")").orElse("");
            warnings.add(key.path() + " is not supported yet and is ignored" + where + "; remove it to silence this");
        }
        return warnings;
    }
}
