package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} must list every key of the schema in its generated reference, exactly as the schema
 * declares it, and name no key in its prose that the schema does not declare (a legacy key it explains is fine).
 */
class ConfigReferenceTest {

    private static final String FILE = "docs/configuration.md";
    /** The same switch as the example file's: {@code -Dsvc.updateExample=true} rewrites the reference first. */
    private static final String UPDATE_PROPERTY = "svc.updateExample";
    /** A key path as the prose writes one in backticks: {@code derp.server.ipv4}, {@code oidc.*}. */
    private static final Pattern NAMED_KEY = Pattern.compile("`([a-z][a-z0-9_]*(?:\\.[a-z0-9_]+)*(?:\\.\\*)?)(?::[^`]*)?`");

    private final ConfigSchema schema = ConfigSchema.instance();

    @BeforeAll
    static void updateWhenAsked() throws IOException {
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Path docs = findDocs();
            String text = Files.readString(docs);
            int begin = text.indexOf(ConfigReference.BEGIN);
            int end = text.indexOf(ConfigReference.END);
            if (begin < 0 || end < 0) {
                fail(FILE + " has no generated key reference to update: add the lines " + ConfigReference.BEGIN
                        + " and " + ConfigReference.END + " where it goes");
            }
            Files.writeString(docs, text.substring(0, begin) + ConfigReference.render()
                    + text.substring(text.indexOf('\n', end) + 1));
        }
    }

    @Test
    void docsListEveryDeclaredKeyAsTheSchemaDeclaresIt() throws IOException {
        List<String> disagreements = disagreements(generatedSection(Files.readString(findDocs())));
        if (!disagreements.isEmpty()) {
            fail(FILE + " and ConfigSchema disagree; regenerate its key reference from the schema with -D"
                    + UPDATE_PROPERTY + "=true:\n  " + String.join("\n  ", disagreements));
        }
    }

    @Test
    void checkNoticesAMissingKeyAnUndeclaredKeyAndAChangedRow() {
        String tampered = ConfigReference.render()
                .replaceAll("(?m)^\\| `cli\\.insecure` .*\\n", "")
                .replace("| `log.level` | one of the listed words | `\"info\"`", "| `log.level` | one of the listed words | `\"debug\"`")
                .replace(ConfigReference.END, "| `cli.insecurity` | true or false | `false` |  | Made up. |\n"
                        + ConfigReference.END);
        assertEquals(List.of(
                "log.level: the docs have a row other than the schema's",
                "cli.insecurity: in the docs but not declared",
                "cli.insecure: declared but missing from the docs"),
                disagreements(generatedSection(tampered)));
    }

    @Test
    void keysTheProseNamesAreDeclared() throws IOException {
        String text = Files.readString(findDocs());
        String prose = text.substring(0, text.indexOf(ConfigReference.BEGIN))
                + text.substring(text.indexOf(ConfigReference.END));
        List<String> undeclared = new ArrayList<>();
        Matcher named = NAMED_KEY.matcher(prose);
        while (named.find()) {
            String path = named.group(1);
            String top = path.split("\\.")[0];
            boolean looksLikeAKey = path.contains(".") || path.contains("_");
            if (looksLikeAKey && (schema.isSection(top) || schema.key(top).isPresent()) && !declared(path)) {
                undeclared.add(path);
            }
        }
        assertEquals(List.of(), undeclared, FILE + " names keys the schema does not declare");
    }

    @Test
    void everyRuleOnAKeyHasWordsForTheReference() {
        List<String> silent = schema.keys().stream()
                .filter(key -> key.check() != ConfigKey.Check.NONE && key.check().rule().isBlank())
                .map(ConfigKey::path).toList();
        assertEquals(List.of(), silent, "give these keys' checks words with ConfigKey.Check.described");
    }

    private boolean declared(String path) {
        if (path.endsWith(".*")) {
            return schema.isSection(path.substring(0, path.length() - 2));
        }
        return schema.key(path).isPresent() || schema.isSection(path) || LegacyKeys.isLegacy(path);
    }

    private List<String> disagreements(String section) {
        Map<String, String> documented = rows(section);
        Map<String, String> declared = rows(ConfigReference.render());
        List<String> found = new ArrayList<>();
        documented.forEach((path, row) -> {
            if (declared.containsKey(path) && !declared.get(path).equals(row)) {
                found.add(path + ": the docs have a row other than the schema's");
            }
        });
        documented.keySet().stream().filter(path -> !declared.containsKey(path))
                .forEach(path -> found.add(path + ": in the docs but not declared"));
        declared.keySet().stream().filter(path -> !documented.containsKey(path))
                .forEach(path -> found.add(path + ": declared but missing from the docs"));
        return found;
    }

    /** Each table row by the key it describes. */
    private static Map<String, String> rows(String section) {
        Map<String, String> rows = new LinkedHashMap<>();
        section.lines().filter(line -> line.startsWith("| `")).forEach(line ->
                rows.put(line.substring(3, line.indexOf('`', 3)), line));
        return rows;
    }

    private static String generatedSection(String text) {
        int begin = text.indexOf(ConfigReference.BEGIN);
        int end = text.indexOf(ConfigReference.END);
        if (begin < 0 || end < begin) {
            fail(FILE + " has no generated key reference (" + ConfigReference.BEGIN + " ... " + ConfigReference.END + ")");
        }
        return text.substring(begin, end + ConfigReference.END.length());
    }

    /** The repository root holds the docs; tests run in modules/core, so look upwards. */
    private static Path findDocs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(FILE))) {
                return dir.resolve(FILE);
            }
        }
        fail(FILE + " not found above " + Path.of("").toAbsolutePath());
        return null;
    }
}
