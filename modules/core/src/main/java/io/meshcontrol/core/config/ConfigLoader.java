package io.meshcontrol.core.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Loads the configuration: find the file, read it, translate deprecated keys, warn about unknown ones, lay the
 * {@code SVC_} variables over it, check every key, then check the rules between keys, then report keys that are not
 * supported yet. It never stops at the first
 * problem: {@code svc configtest} shows them all at once.
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    public static LoadedConfig load(ConfigRequest request) {
        ConfigSchema schema = ConfigSchema.instance();
        List<ConfigProblem> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();

        ConfigFileLocator.Located located = ConfigFileLocator.locate(request);
        located.problem().ifPresent(errors::add);
        warnings.addAll(located.warnings());

        Map<String, JsonNode> fileEntries = Map.of();
        if (located.file().isPresent()) {
            Path file = located.file().get();
            ConfigFileReader.FileEntries read = ConfigFileReader.read(file, schema);
            errors.addAll(read.problems());
            LegacyKeys.Result translated = LegacyKeys.translate(read.entries());
            warnings.addAll(translated.warnings());
            errors.addAll(translated.problems());
            fileEntries = translated.entries();
            warnings.addAll(unknownKeys(schema, fileEntries, file));
        }

        EnvironmentOverlay.Overrides overrides = EnvironmentOverlay.select(schema, request.env());
        warnings.addAll(overrides.warnings());

        ValueResolver.Resolution resolution = ValueResolver.resolve(schema, fileEntries, overrides.byKey());
        errors.addAll(resolution.problems());
        errors.addAll(ConfigValidator.validate(resolution.values()));
        warnings.addAll(UnsupportedKeys.check(resolution.values()));

        MeshConfig config = ConfigBinder.bind(resolution.values(), request.workingDir());
        return new LoadedConfig(config, located.file(), errors, warnings);
    }

    /** Unknown keys are warnings, not errors, so a file written for a newer version (or for headscale) still loads. */
    private static List<String> unknownKeys(ConfigSchema schema, Map<String, JsonNode> entries, Path file) {
        List<String> known = schema.keys().stream().map(ConfigKey::path).toList();
        return entries.keySet().stream()
                .filter(path -> schema.key(path).isEmpty())
                .map(path -> "unknown key " + path + " in " + file + " is ignored"
                        + Suggestions.closest(path, known).map(s -> " (did you mean " + s + "?)").orElse(""))
                .toList();
    }
}
