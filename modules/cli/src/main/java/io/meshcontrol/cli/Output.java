package io.meshcontrol.cli;

import io.meshcontrol.api.ApiJson;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code --output json|yaml|table}: machine-readable documents or a table for people. */
final class Output {

    enum Format { table, json, yaml }

    @Option(names = {"-o", "--output"}, defaultValue = "table",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Format format;

    /**
     * The mappers live in a holder so that they are built on first print only: picocli initialises this class
     * for every command line (it holds an option), and building them loads some 400 Jackson classes that
     * {@code svc version} or {@code --help} never use (docs/performance.md, "CLI start-up").
     */
    private static final class Mappers {
        static final ObjectWriter JSON = ApiJson.mapper(false).rebuild().enable(SerializationFeature.INDENT_OUTPUT)
                .build().writer().with(new TerminalSafeJson());
        /** One document per line (the JSON log), as terminal-safe as {@link #JSON}. */
        static final ObjectWriter JSON_LINE = ApiJson.mapper(false).writer().with(new TerminalSafeJson());
        static final YAMLMapper YAML = YAMLMapper.builder()
                .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL))
                .build();
    }

    /**
     * JSON's own six-character escapes for the characters {@link TerminalText} escapes in tables: the document
     * parses to exactly the same values, and printing it on a terminal is as safe as printing a table. JSON itself
     * requires this for C0 controls only; Jackson writes the rest raw unless told.
     */
    private static final class TerminalSafeJson extends CharacterEscapes {
        private static final int[] ASCII = standardAsciiEscapesForJSON();

        static {
            ASCII[0x7F] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ASCII;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            return TerminalText.isUnsafe(c) ? new SerializedString(String.format("\\u%04x", c)) : null;
        }
    }

    /**
     * YAML's own escapes for what the YAML writer leaves raw: it escapes C0, DEL and C1 controls itself but writes the
     * bidirectional characters and line separators as they are. Every string it writes is double-quoted (the
     * documents' keys are field names, and quotes are not minimised), and in a double-quoted scalar
     * <code>&#92;u202e</code> is the same character, so the document reads back unchanged (TerminalEscapesCliTest).
     */
    private static String terminalSafeYaml(String yaml) {
        StringBuilder safe = new StringBuilder(yaml.length());
        yaml.chars().forEach(c -> {
            if (c != '\n' && TerminalText.isUnsafe(c)) {
                safe.append(String.format("\\u%04x", c));
            } else {
                safe.append((char) c);
            }
        });
        return safe.toString();
    }

    /** A generator of compact JSON into {@code out}, escaped as {@code --output json} is. */
    static JsonGenerator jsonLine(Writer out) {
        return Mappers.JSON_LINE.createGenerator(out);
    }

    /** Prints {@code document} as JSON or YAML, or {@code rows} as a table with the given columns. */
    <T> void print(CliContext context, Object document, List<T> rows, List<Column<T>> columns) {
        switch (format) {
            case json -> context.out().println(Mappers.JSON.writeValueAsString(document));
            case yaml -> context.out().print(terminalSafeYaml(Mappers.YAML.writeValueAsString(document)));
            case table -> context.out().print(table(rows, columns));
        }
    }

    boolean isTable() {
        return format == Format.table;
    }

    /**
     * A document that carries a secret shown once. Table mode prints only the secret on stdout, so that
     * {@code KEY=$(svc ... create)} works, and the notes on stderr.
     */
    void printSecret(CliContext context, Object document, String secret, List<String> notes) {
        if (!isTable()) {
            print(context, document, List.of(), List.of());
            return;
        }
        context.out().println(secret);
        notes.forEach(context::note);
    }

    record Column<T>(String title, Function<T, Object> value) {
    }

    static <T> String table(List<T> rows, List<Column<T>> columns) {
        List<String[]> cells = new ArrayList<>();
        cells.add(columns.stream().map(Column::title).toArray(String[]::new));
        for (T row : rows) {
            cells.add(columns.stream().map(c -> {
                Object value = c.value().apply(row);
                return value == null ? "" : TerminalText.escape(value.toString());
            }).toArray(String[]::new));
        }
        int[] widths = new int[columns.size()];
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] line : cells) {
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                row.append(i == line.length - 1 ? line[i] : String.format("%-" + widths[i] + "s  ", line[i]));
            }
            text.append(row.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }
}
