package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The API-key lifecycle driven through the real CLI against a running server. */
class ApiKeysCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    private CliRun local(String... args) {
        return cli.run(args);
    }

    /** Remote use: the key in SVC_CLI_API_KEY, the server in SVC_CLI_ADDRESS, no local credential. */
    private CliRun remote(String apiKey, String... args) {
        return cli.remote(apiKey, args);
    }

    @Test
    void createUseRotateExpire() {
        assertEquals(0, local("users", "create", "--name", "odin", "--role", "admin").exitCode());
        CliRun created = local("apikeys", "create", "--user", "odin", "--description", "ci", "--expiration", "720h");
        assertEquals(0, created.exitCode(), created.toString());
        String secret = created.firstLine();
        assertTrue(secret.startsWith("svckey-api-"), created.toString());
        assertTrue(created.err().contains("not shown again"));

        CliRun used = remote(secret, "users", "list", "--output", "json");
        assertEquals(0, used.exitCode(), used.toString());
        assertTrue(used.out().contains("\"name\" : \"odin\""), used.out());

        String prefix = secret.split("-")[2];
        CliRun rotated = local("apikeys", "rotate", "--prefix", prefix);
        assertEquals(0, rotated.exitCode(), rotated.toString());
        String newSecret = rotated.firstLine();
        CliRun old = remote(secret, "users", "list");
        assertEquals(1, old.exitCode());
        assertEquals("svc: invalid, expired or revoked credential (HTTP 401)\n", old.err());
        assertEquals(0, remote(newSecret, "users", "list").exitCode());

        String newPrefix = newSecret.split("-")[2];
        assertEquals(0, local("apikeys", "expire", "--prefix", newPrefix).exitCode());
        assertEquals(1, remote(newSecret, "users", "list").exitCode(), "expired key refused");
        CliRun refused = local("apikeys", "rotate", "--prefix", newPrefix);
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().contains("has expired and cannot be rotated"), refused.err());
        assertEquals(1, refused.err().lines().count(), "one readable line");

        CliRun listed = local("apikeys", "list");
        assertTrue(listed.out().contains(newPrefix) && listed.out().contains("expired"), listed.out());
        assertTrue(!listed.out().contains(newSecret.substring(newSecret.lastIndexOf('-') + 1)), "secrets never listed");
    }

    @Test
    void anExpirationAboveTheCapIsOneLineNamingTheCap() {
        CliRun refused = local("apikeys", "create", "--expiration", "876000h");
        assertEquals(1, refused.exitCode(), refused.toString());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().contains("8760h") && refused.err().contains("api_keys.max_expiration")
                && refused.err().endsWith("(HTTP 400)\n"), refused.err());
        assertEquals("", refused.out());
    }

    @Test
    void scopedKeyMintingThroughTheCli() {
        String scoped = local("apikeys", "create", "--scope", "api_access_tokens", "--scope", "dns").firstLine();
        CliRun dropped = remote(scoped, "apikeys", "create", "--scope", "dns", "--scope", "users");
        assertEquals(0, dropped.exitCode(), dropped.toString());
        assertTrue(dropped.err().contains("not granted (not delegable): users"), dropped.err());

        CliRun none = remote(scoped, "apikeys", "create", "--scope", "users");
        assertEquals(1, none.exitCode());
        assertTrue(none.err().startsWith("svc: none of the requested scopes can be delegated"), none.err());
        assertTrue(none.err().endsWith("(HTTP 403)\n"), none.err());
    }

    @Test
    void listSaysWhatEachKeyMayDo() {
        assertEquals(0, local("users", "create", "--name", "odin", "--role", "admin").exitCode());
        assertEquals(0, local("apikeys", "create", "--scope", "dns", "--description", "scoped").exitCode());
        assertEquals(0, local("apikeys", "create", "--description", "everything").exitCode());
        assertEquals(0, local("apikeys", "create", "--user", "odin", "--description", "owned").exitCode());
        String table = local("apikeys", "list").out();
        assertEquals("(no owner)  dns  scoped", row(table, "scoped"), table);
        assertEquals("(no owner)  (all access)  everything", row(table, "everything"), table);
        assertEquals("odin  (owner's role)  owned", row(table, "owned"), table);
    }

    /** The USER, SCOPES and DESCRIPTION cells of the row with this description, joined as the table separates them. */
    private static String row(String table, String description) {
        String line = table.lines().filter(l -> l.contains("  " + description + "  ")).findFirst().orElseThrow();
        String[] cells = line.split(" {2,}");
        return cells[2] + "  " + cells[3] + "  " + cells[4];
    }

    @Test
    void outputFormats() {
        local("users", "create", "--name", "thor");
        assertTrue(local("users", "list", "-o", "yaml").out().contains("name: \"thor\""));
        assertTrue(local("users", "list", "-o", "json").out().contains("\"users\""));
        CliRun table = local("users", "list");
        assertTrue(table.out().startsWith("ID  NAME"), table.out());
    }

    @Test
    void configOptionWorksAfterTheSubcommandToo() {
        CliRun run = CliRun.run(folder, Map.of(), "users", "list", "-c", cli.config().toString());
        assertEquals(0, run.exitCode(), run.toString());
    }

    @Test
    void errorsAreOneLineWithNonZeroExit() {
        CliRun unknownUser = local("users", "list", "--name", "nobody");
        assertEquals(1, unknownUser.exitCode());
        assertEquals("svc: no user \"nobody\" (HTTP 404)\n", unknownUser.err());

        CliRun usage = local("users", "create");
        assertEquals(2, usage.exitCode());
        assertTrue(usage.err().startsWith("svc: Missing required option: '--name=<name>'"), usage.err());
    }

    @Test
    void noLocalServerIsExplained() throws IOException {
        Files.writeString(cli.config(), "cli:\n  local_credential_path: " + folder.resolve("absent.json") + "\n");
        CliRun run = local("users", "list");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("svc: no server is running on this machine"), run.err());
    }

    @Test
    void remoteAddressWithoutKeyIsExplained() {
        CliRun run = CliRun.run(folder, Map.of("SVC_CLI_ADDRESS", cli.server().url().toString()), "users", "list");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("set cli.api_key or SVC_CLI_API_KEY"), run.err());
    }
}
