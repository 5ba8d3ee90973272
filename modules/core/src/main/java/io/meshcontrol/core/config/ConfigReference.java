package io.meshcontrol.core.config;

/**
 * Renders the schema as the key reference of {@code docs/configuration.md} ("Every key"): one table row per key
 * with its type, default, rule and description, all taken from {@link ConfigSchema}. A test keeps the committed
 * section and the schema in step, as it does {@code config.yaml.example} ({@link ExampleConfig}).
 */
public final class ConfigReference {

    /** The lines that enclose the generated table in the document. */
    public static final String BEGIN = "<!-- Generated from ConfigSchema (ConfigReference); do not edit by hand. -->";
    public static final String END = "<!-- End of the generated key reference. -->";

    private ConfigReference() {
    }

    /** The generated section, from {@link #BEGIN} to {@link #END}, each on a line of its own. */
    public static String render() {
        return render(ConfigSchema.instance());
    }

    static String render(ConfigSchema schema) {
        StringBuilder out = new StringBuilder(BEGIN).append('\n')
                .append("| Key | Type | Default | Must be | What it does |\n")
                .append("|---|---|---|---|---|\n");
        for (ConfigKey key : schema.keys()) {
            out.append("| `").append(key.path()).append("` | ").append(key.type().description())
                    .append(" | `").append(cell(ExampleConfig.yaml(key.type(), key.defaultValue()))).append("` | ")
                    .append(cell(rule(key))).append(" | ").append(cell(key.description()));
            if (key.support() == ConfigKey.Support.NOT_YET) {
                out.append(" **Not supported yet**: ignored, another value is a warning.");
            }
            out.append(" |\n");
        }
        return out.append(END).append('\n').toString();
    }

    /** The key's rule beyond its type: its choices, or its check's words. */
    static String rule(ConfigKey key) {
        if (key.type() == ValueType.CHOICE) {
            return "one of " + String.join(", ", key.choices());
        }
        return key.check().rule();
    }

    /** Text safe inside a Markdown table cell. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
