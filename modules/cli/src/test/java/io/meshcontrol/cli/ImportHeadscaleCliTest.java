package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.testing.HeadscaleDatabaseFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc import headscale}: the dry run, the import itself, its refusals, the configuration and the Noise key. */
class ImportHeadscaleCliTest {

    @TempDir
    Path folder;
    Path svcConfig;
    Path headscaleDb;
    Path headscaleConfig;
    MachinePrivateKey headscaleNoiseKey = MachinePrivateKey.generate();

    @BeforeEach
    void setUp() throws Exception {
        headscaleDb = folder.resolve("headscale/db.sqlite");
        Files.createDirectories(headscaleDb.getParent());
        try (HeadscaleDatabaseFile hs = HeadscaleDatabaseFile.create(headscaleDb)) {
            hs.user(1, "alice", "alice@example.com", null);
            hs.node(1, 'a', "laptop", "100.64.0.1", "fd7a:115c:a1e0::1", 1L, "[]", null, "{}", "[]", null);
            hs.apiKey(1, "ApiPrefix123");
        }
        Path noise = Files.writeString(folder.resolve("headscale/noise_private.key"), headscaleNoiseKey.toText());
        headscaleConfig = Files.writeString(folder.resolve("headscale/config.yaml"), """
                server_url: http://127.0.0.1:8080
                noise:
                  private_key_path: %s
                grpc_listen_addr: 127.0.0.1:50443
                dns:
                  base_domain: tail.example.com
                  nameservers:
                    global: [1.1.1.1]
                """.formatted(noise));
        svcConfig = Files.writeString(folder.resolve("svc.yaml"), """
                database:
                  sqlite:
                    path: %s
                noise:
                  private_key_path: %s
                """.formatted(folder.resolve("svc/db.sqlite"), folder.resolve("svc/noise_private.key")));
    }

    private CliRun importing(String... more) {
        String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"import", "headscale", "--db", headscaleDb.toString(), "--config",
                headscaleConfig.toString()}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return CliRun.withConfig(folder, svcConfig, args);
    }

    @Test
    void aDryRunPrintsEverythingAndChangesNothing() {
        CliRun dryRun = importing("--dry-run");
        assertEquals(0, dryRun.exitCode(), dryRun.toString());
        assertTrue(dryRun.out().contains("import: 1 user(s), 1 node(s), 0 pre-auth key(s)"), dryRun.out());
        assertTrue(dryRun.out().contains("import: node 1 laptop user 1: 100.64.0.1 fd7a:115c:a1e0::1"), dryRun.out());
        assertTrue(dryRun.out().contains("not carried: API key hskey-api-ApiPrefix123-***"), dryRun.out());
        assertTrue(dryRun.out().contains("not carried: config grpc_listen_addr: svc has no gRPC API"), dryRun.out());
        assertTrue(dryRun.out().contains("base_domain: \"tail.example.com\""), dryRun.out());
        assertTrue(dryRun.out().contains("dry run: nothing was changed"), dryRun.out());
        assertFalse(Files.exists(folder.resolve("svc")), "neither a database nor a key was made");
    }

    @Test
    void theImportFillsTheNetworkTakesHeadscalesNoiseKeyAndIsNotRepeated() throws Exception {
        Files.createDirectories(folder.resolve("svc"));
        MachinePrivateKey ours = MachinePrivateKey.loadOrCreate(folder.resolve("svc/noise_private.key"));
        Path written = folder.resolve("generated.yaml");
        CliRun imported = importing("--write-config", written.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        assertEquals(headscaleNoiseKey.publicKey(),
                MachinePrivateKey.load(folder.resolve("svc/noise_private.key")).publicKey(),
                "clients keep the key they pinned");
        assertEquals(ours.publicKey(),
                MachinePrivateKey.load(folder.resolve("svc/noise_private.key.before-import")).publicKey(),
                "the key svc had is kept beside it");
        assertTrue(Files.readString(written).contains("server_url: \"http://127.0.0.1:8080\""));

        CliRun again = importing("--dry-run");
        assertEquals(1, again.exitCode(), again.toString());
        assertTrue(again.out().contains("blocker: the network is not empty (1 user(s), 1 node(s))"), again.out());
        CliRun refused = importing();
        assertEquals(1, refused.exitCode(), refused.toString());
        assertTrue(refused.err().startsWith("svc: nothing imported: fix the blockers above"), refused.err());
    }

    @Test
    void addressesOutsideSvcsPrefixesAreNamed() throws Exception {
        Files.writeString(svcConfig, Files.readString(svcConfig) + "prefixes:\n  v4: 100.100.0.0/16\n");
        CliRun dryRun = importing("--dry-run");
        assertEquals(0, dryRun.exitCode(), dryRun.toString());
        assertTrue(dryRun.out().contains("warning: node 1 laptop: 100.64.0.1 is outside svc's prefixes.v4 "
                + "(100.100.0.0/16)"), dryRun.out());
        assertFalse(dryRun.out().contains("fd7a:115c:a1e0::1 is outside"), dryRun.out());
    }

    @Test
    void svcOnPostgresqlIsToldToImportIntoSqliteThenMigrate() throws Exception {
        Files.writeString(svcConfig, Files.readString(svcConfig).replace("database:\n",
                "database:\n  type: postgres\n"));
        CliRun run = importing("--dry-run");
        assertEquals(1, run.exitCode(), run.toString());
        assertEquals("svc: svc's database.type is postgres: import into SQLite (database.type: sqlite), then move the "
                + "network with svc db migrate\n", run.err());
        assertFalse(Files.exists(folder.resolve("svc")), "nothing was made");
    }

    @Test
    void aPostgresqlDatabaseIsNotSupportedYetAndSaysSo() {
        CliRun run = CliRun.withConfig(folder, svcConfig, "import", "headscale", "--db",
                "postgres://headscale@localhost/headscale", "--dry-run");
        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("svc: reading headscale's PostgreSQL database is not supported yet"), run.err());
    }

    @Test
    void svcsOwnConfigurationIsNamedBeforeTheCommandAndDashCIsNotHeadscales() {
        CliRun run = CliRun.run(folder, java.util.Map.of(), "import", "headscale", "--db", headscaleDb.toString(),
                "-c", headscaleConfig.toString());
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("svc: Unknown options: '-c'"), run.err());
    }
}
