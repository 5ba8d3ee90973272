package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code config.yaml.example} at the repository root must list every key of the schema with its default. */
class ExampleFileTest {

    private static final String FILE = "config.yaml.example";
    /** {@code ./mvnw -pl modules/core test -Dsvc.updateExample=true} rewrites the file from the schema first. */
    private static final String UPDATE_PROPERTY = "svc.updateExample";

    private final ConfigSchema schema = ConfigSchema.instance();

    @BeforeAll
    static void updateWhenAsked() throws IOException {
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.writeString(findExample(), ExampleConfig.render());
        }
    }

    @Test
    void exampleFileAndSchemaAgree() throws IOException {
        Path example = findExample();
        List<String> disagreements = disagreements(Files.readString(example), example.toString());
        if (!disagreements.isEmpty()) {
            fail(FILE + " and ConfigSchema disagree; fix the file, or regenerate it from the schema with -D"
                    + UPDATE_PROPERTY + "=true:\n  " + String.join("\n  ", disagreements));
        }
    }

    @Test
    void exampleFileLoadsCleanly(@TempDir Path dir) {
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(findExample(), Map.of(), dir, null, dir));
        assertEquals(List.of(), loaded.errors());
        assertEquals(List.of(), loaded.warnings());
        assertEquals(ConfigLoader.load(new ConfigRequest(null, Map.of(), dir, null, dir)).config(), loaded.config());
    }

    @Test
    void exampleFileMarksEveryKeyNotSupportedYet() throws IOException {
        String text = Files.readString(findExample());
        long marked = schema.keys().stream().filter(key -> key.support() != ConfigKey.Support.SUPPORTED).count();
        assertEquals(marked, text.lines().filter(line -> line.contains("NOT SUPPORTED YET")).count(),
                "regenerate " + FILE + " with -D" + UPDATE_PROPERTY + "=true");
    }

    @Test
    void renderedExampleMatchesTheSchema() {
        assertEquals(List.of(), disagreements(ExampleConfig.render(), "rendered example"));
    }

    @Test
    void checkNoticesAMissingKeyAnUnknownKeyAndAChangedDefault() {
        String tampered = ExampleConfig.render()
                .replace("  level: \"info\"", "  level: \"debug\"")
                .replace("  insecure: false\n", "  insecurity: false\n");
        assertEquals(List.of(
                "log.level: the example has \"debug\", the schema's default is \"info\"",
                "cli.insecurity: in the example but not in the schema",
                "cli.insecure: missing from the example (default: false)"),
                disagreements(tampered, "tampered"));
    }

    private List<String> disagreements(String yaml, String name) {
        ConfigFileReader.FileEntries read = ConfigFileReader.parse(yaml, name, schema);
        List<String> found = new ArrayList<>();
        read.problems().forEach(problem -> found.add(problem.toString()));
        Map<String, JsonNode> entries = read.entries();
        for (Map.Entry<String, JsonNode> entry : entries.entrySet()) {
            Optional<ConfigKey> key = schema.key(entry.getKey());
            if (key.isEmpty()) {
                continue;
            }
            Object value;
            try {
                value = entry.getValue().isNull() && key.get().type().optional()
                        ? Optional.empty()
                        : ValueDecoder.fromYaml(key.get(), entry.getValue());
            } catch (ValueDecoder.InvalidValueException e) {
                found.add(entry.getKey() + ": " + e.getMessage());
                continue;
            }
            if (!value.equals(key.get().defaultValue())) {
                found.add(entry.getKey() + ": the example has " + ExampleConfig.yaml(key.get().type(), value)
                        + ", the schema's default is " + ExampleConfig.yaml(key.get().type(), key.get().defaultValue()));
            }
        }
        entries.keySet().stream().filter(path -> schema.key(path).isEmpty())
                .forEach(path -> found.add(path + ": in the example but not in the schema"));
        schema.keys().stream().filter(key -> !entries.containsKey(key.path()))
                .forEach(key -> found.add(key.path() + ": missing from the example (default: "
                        + ExampleConfig.yaml(key.type(), key.defaultValue()) + ")"));
        return found;
    }

    /** The repository root holds the file; tests run in modules/core, so look upwards. */
    private static Path findExample() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(FILE))) {
                return dir.resolve(FILE);
            }
        }
        fail(FILE + " not found above " + Path.of("").toAbsolutePath());
        return null;
    }

    @Test
    void everyDescriptionAppearsInTheExample() throws IOException {
        String text = Files.readString(findExample());
        for (ConfigKey key : schema.keys()) {
            assertTrue(text.contains("# " + key.description()), key.path() + ": description missing from " + FILE
                    + " (regenerate it with -D" + UPDATE_PROPERTY + "=true)");
        }
    }
}
