package io.meshcontrol.core.config;

import io.meshcontrol.core.GoDuration;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders the schema as a commented YAML file listing every key with its default: the text of
 * {@code config.yaml.example}. A test keeps the committed file and the schema in step.
 */
public final class ExampleConfig {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String HEADER = """
            # Mesh Control (svc) configuration: every key, set to its built-in default.
            #
            # svc reads the first of: -c/--config <file>, $SVC_CONFIG, ./config.yaml, $HOME/.svc/config.yaml,
            # /etc/svc/config.yaml. With none of them, these defaults apply. Relative paths are relative to the
            # working directory.
            #
            # Any key can be overridden by an environment variable: SVC_ + the key path in upper case with dots as
            # underscores, e.g. SVC_DATABASE_SQLITE_PATH. Lists are space-separated, maps are JSON objects,
            # durations use Go syntax (90s, 30m, 720h) and an empty value is an explicit empty value.
            # See docs/configuration.md.
            """;

    private ExampleConfig() {
    }

    /** The example file's text. */
    public static String render() {
        return render(ConfigSchema.instance());
    }

    static String render(ConfigSchema schema) {
        StringBuilder out = new StringBuilder(HEADER);
        List<String> open = List.of();
        Set<String> closed = new HashSet<>();
        String previousTop = null;
        for (ConfigKey key : schema.keys()) {
            List<String> segments = List.of(key.path().split("\\."));
            List<String> sections = segments.subList(0, segments.size() - 1);
            int common = 0;
            while (common < open.size() && common < sections.size() && open.get(common).equals(sections.get(common))) {
                common++;
            }
            for (int i = common; i < open.size(); i++) {
                closed.add(String.join(".", open.subList(0, i + 1)));
            }
            if (!segments.get(0).equals(previousTop)) {
                out.append('\n');
            }
            for (int i = common; i < sections.size(); i++) {
                String section = String.join(".", sections.subList(0, i + 1));
                if (closed.contains(section)) {
                    // YAML would see the section twice; the schema must keep a section's keys together.
                    throw new IllegalStateException("keys of section " + section + " are not next to each other in the schema");
                }
                out.append(indent(i)).append(sections.get(i)).append(":\n");
            }
            String indent = indent(sections.size());
            out.append(indent).append("# ").append(key.description());
            if (key.type() == ValueType.CHOICE) {
                out.append(" One of: ").append(String.join(", ", key.choices())).append('.');
            }
            out.append(switch (key.support()) {
                case SUPPORTED -> "";
                case NOT_YET -> " NOT SUPPORTED YET: ignored; another value is a warning.";
            });
            out.append('\n');
            out.append(indent).append(segments.get(segments.size() - 1)).append(": ")
                    .append(yaml(key.type(), key.defaultValue())).append('\n');
            open = sections;
            previousTop = segments.get(0);
        }
        return out.toString();
    }

    /** A decoded value as YAML (JSON-style flow, which YAML reads as written). */
    static String yaml(ValueType type, Object value) {
        return switch (type) {
            case BOOLEAN, INTEGER -> value.toString();
            case MILLISECONDS -> Long.toString(((Duration) value).toMillis());
            case DURATION -> JSON.writeValueAsString(GoDuration.format((Duration) value));
            case OPTIONAL_STRING, OPTIONAL_PATH -> ((Optional<?>) value).map(JSON::writeValueAsString).orElse("null");
            case STRING_LIST, STRING_MAP, STRING_LIST_MAP, RECORD_LIST ->
                    JSON.writeValueAsString(value).replace("\",\"", "\", \"");
            case STRING, PATH, CHOICE -> JSON.writeValueAsString(value);
        };
    }

    private static String indent(int depth) {
        return "  ".repeat(depth);
    }
}
