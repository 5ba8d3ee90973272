package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Text stored through the API can hold terminal control sequences; the CLI shows them as visible escapes in tables and
 * messages, and as JSON escapes in JSON, so that listing users cannot clear an operator's screen, ring the bell,
 * overwrite a line or reverse the order of what is shown.
 */
class TerminalEscapesCliTest {

    /** Clear screen, bell, carriage return (to overwrite the line), right-to-left override. */
    private static final String HOSTILE = "Eve\u001b[2J\u0007\rroot\u202eexe.txt";
    private static final String SHOWN = "Eve\\x1b[2J\\x07\\x0droot\\u202eexe.txt";

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @Test
    void tablesShowStoredControlCharactersAsEscapes() {
        CliRun created = cli.run("users", "create", "--name", "eve", "--display-name", HOSTILE,
                "--email", "eve\u009b2J@example.com");
        assertEquals(0, created.exitCode(), created.toString());
        assertEquals(0, cli.run("apikeys", "create", "--user", "eve", "--description", HOSTILE).exitCode());

        CliRun users = cli.run("users", "list");
        assertEquals(0, users.exitCode(), users.toString());
        assertSafe(users.out());
        assertTrue(users.out().contains(SHOWN), users.out());
        assertTrue(users.out().contains("eve\\x9b2J@example.com"), "C1 CSI too: " + users.out());
        assertEquals(2, users.out().lines().count(), "a header and one line per user: " + users.out());

        CliRun keys = cli.run("apikeys", "list");
        assertEquals(0, keys.exitCode(), keys.toString());
        assertSafe(keys.out());
        assertTrue(keys.out().contains(SHOWN), keys.out());
    }

    @Test
    void aFederatedIdentitysTrustIsEscapedInTheNoteAfterCreating() {
        CliRun created = cli.run("oauth-clients", "create", "--federated", "--scope", "dns", "--issuer",
                "https://token.actions.example", "--subject", HOSTILE);
        assertEquals(0, created.exitCode(), created.toString());
        assertSafe(created.err());
        assertTrue(created.err().contains("trusts " + SHOWN), created.err());
    }

    @Test
    void jsonOutputKeepsTheExactValueInJsonEscapes() {
        assertEquals(0, cli.run("users", "create", "--name", "eve", "--display-name", HOSTILE + "\u007f\u2066")
                .exitCode());
        CliRun json = cli.run("users", "list", "--output", "json");
        assertEquals(0, json.exitCode(), json.toString());
        assertSafe(json.out());
        assertTrue(json.out().contains("\\u001B[2J\\u0007\\rroot\\u202eexe.txt\\u007F\\u2066"), json.out());
        JsonNode users = JsonMapper.builder().build().readTree(json.out()).get("users");
        assertEquals(HOSTILE + "\u007f\u2066", users.get(0).get("displayName").asString());
    }

    @Test
    void yamlOutputKeepsTheExactValueInYamlEscapes() {
        String stored = HOSTILE + "\u007f\u0085\u2028\u2066 " + "long ".repeat(30) + "\u202e";
        assertEquals(0, cli.run("users", "create", "--name", "eve", "--display-name", stored).exitCode());
        CliRun yaml = cli.run("users", "list", "--output", "yaml");
        assertEquals(0, yaml.exitCode(), yaml.toString());
        assertSafe(yaml.out());
        JsonNode users = tools.jackson.dataformat.yaml.YAMLMapper.builder().build().readTree(yaml.out()).get("users");
        assertEquals(stored, users.get(0).get("displayName").asString());
    }

    @Test
    void messagesFromTheServerAreEscapedToo() {
        CliRun refused = cli.run("users", "create", "--name", "\u001b]0;pwned\u0007");
        assertEquals(1, refused.exitCode());
        assertSafe(refused.err());
        assertEquals(List.of("svc: invalid user name \"\\x1b]0;pwned\\x07\": use 1 to 63 letters, digits or . _ - + @,"
                + " starting with a letter or digit (HTTP 400)"), refused.err().lines().toList());
    }

    private static void assertSafe(String printed) {
        printed.chars().filter(c -> c != '\n').forEach(c -> assertTrue(!TerminalText.isUnsafe(c),
                String.format("U+%04X printed raw in: %s", c, printed)));
    }

    @Test
    void serverLogLinesAreEscapedAndStayOneLine() {
        java.util.logging.LogRecord record = new java.util.logging.LogRecord(java.util.logging.Level.INFO,
                "node \"laptop\u001b[2J\n2026-01-01T00:00:00Z INFO forged\" registered");
        record.setLoggerName("io.meshcontrol.server");
        String line = new LogSetup.OneLine().format(record);
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.endsWith(" INFO io.meshcontrol.server: node \"laptop\\x1b[2J\\x0a2026-01-01T00:00:00Z INFO"
                + " forged\" registered\n"), line);
    }

    @Test
    void theEscapesAreVisibleAndEverythingElsePassesUnchanged() {
        assertEquals("Jörg 日本 \\x00\\x09\\x0a\\x7f\\x85 \\u061c\\u200e\\u200f\\u202a\\u2069\\u2028\\u2029",
                TerminalText.escape("Jörg 日本 \u0000\t\n\u007f\u0085 \u061c\u200e\u200f\u202a\u2069\u2028\u2029"));
        assertEquals("plain text", TerminalText.escape("plain text"));
    }
}
