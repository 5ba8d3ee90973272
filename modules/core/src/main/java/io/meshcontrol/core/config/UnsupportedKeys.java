package io.meshcontrol.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reports keys the server does not act on yet ({@link ConfigKey.Support}) whose value is not the default. Only a
 * changed value is reported, so a copy of {@code config.yaml.example} (every key at its default) passes quietly.
 */
final class UnsupportedKeys {

    /** What {@code svc configtest} and {@code svc serve} report: errors stop the server, warnings do not. */
    record Report(List<ConfigProblem> errors, List<String> warnings) {
    }

    /** The refused keys are the TLS ones: what the server does instead, and what to do about it. */
    private static final String TLS_ADVICE = "the server obtains no certificate by ACME yet; remove it and set "
            + "tls_cert_path and tls_key_path, or terminate TLS in a reverse proxy";

    private UnsupportedKeys() {
    }

    static Report check(ResolvedValues values) {
        List<ConfigProblem> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (ConfigKey key : values.schema().keys()) {
            if (key.support() == ConfigKey.Support.SUPPORTED
                    || Objects.equals(values.raw(key.path()), key.defaultValue())) {
                continue;
            }
            String where = values.origin(key.path()).map(variable -> " (set by " + variable + ")").orElse("");
            if (key.support() == ConfigKey.Support.NOT_YET_REFUSED) {
                errors.add(new ConfigProblem(key.path(), "is not supported yet" + where + ": " + TLS_ADVICE));
            } else {
                warnings.add(key.path() + " is not supported yet and is ignored" + where + "; remove it to silence this");
            }
        }
        return new Report(errors, warnings);
    }
}
