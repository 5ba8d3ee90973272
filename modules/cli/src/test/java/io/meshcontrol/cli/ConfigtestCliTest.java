package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestCertificateAuthority;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigtestCliTest {

    @TempDir
    Path folder;

    @Test
    void validConfigurationExitsZero() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "log:\n  level: debug\n");
        CliRun run = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("configuration is valid"));
    }

    @Test
    void everyProblemIsReportedWithItsKey() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, """
                log:
                  level: loud
                listen_addr: nowhere
                client_updates:
                  interval: 5m
                """);
        CliRun run = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().contains("error: log.level: "), run.err());
        assertTrue(run.err().contains("error: listen_addr: "), run.err());
        assertTrue(run.err().contains("error: client_updates.interval: "), run.err());
        assertTrue(run.err().contains("3 problem(s)"), run.err());
    }

    @Test
    void badPostgresSettingsAreOneLineEachNamingTheKey() throws IOException {
        Path config = folder.resolve("config.yaml");
        Path missing = folder.resolve("no-such-password");
        Files.writeString(config, "database:\n  type: postgres\n  postgres:\n    port: 0\n    tls: maybe\n"
                + "    pool_size: 0\n    host: \"\"\n    password_file: " + missing + "\n");
        CliRun run = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, run.exitCode(), run.toString());
        List<String> lines = run.err().lines().toList();
        assertEquals(6, lines.size(), run.err());
        for (String key : List.of("port", "tls", "pool_size", "host", "password_file")) {
            assertEquals(1, lines.stream().filter(l -> l.startsWith("error: database.postgres." + key + ": ")).count(),
                    key + " in " + run.err());
        }
        assertTrue(lines.contains("error: database.postgres.password_file: cannot be read: " + missing), run.err());
        assertEquals(config + ": 5 problem(s)", lines.get(5));
    }

    @Test
    void aPostgresServerThatDoesNotAnswerKeepsServeFromStartingWithOneLineSayingWhere() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "listen_addr: 127.0.0.1:0\nmetrics_listen_addr: null\nnoise:\n  private_key_path: "
                + folder.resolve("noise.key") + "\ndatabase:\n  type: postgres\n  postgres:\n    host: 127.0.0.1\n"
                + "    port: 1\n    tls: disable\n");
        CliRun run = CliRun.run(folder, Map.of(), "serve", "-c", config.toString());
        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().contains("svc: cannot connect to PostgreSQL at svc@127.0.0.1:1/svc: "), run.err());
        assertTrue(run.err().contains("svc: not starting: check database.postgres.*"), run.err());
    }

    @Test
    void aConfigFileNamedThatDoesNotExistIsOneErrorNamingIt() {
        Path missing = folder.resolve("missing.yaml");
        for (String command : new String[] {"configtest", "serve"}) {
            CliRun run = CliRun.run(folder, Map.of(), command, "-c", missing.toString());
            assertEquals(1, run.exitCode(), run.toString());
            assertEquals("svc: config: --config: " + missing + " does not exist\n", run.err(), command);
            assertEquals("", run.out(), command);
        }
    }

    @Test
    void tlsFilesThatDoNotExistAreNamedWithTheirKeysAndServeDoesNotStart() throws IOException {
        Path config = folder.resolve("config.yaml");
        Path cert = folder.resolve("tls/cert.pem");
        Path key = folder.resolve("tls/key.pem");
        Files.writeString(config, "tls_cert_path: " + cert + "\ntls_key_path: " + key + "\n");
        CliRun test = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, test.exitCode(), test.toString());
        assertEquals(List.of("error: tls_cert_path: " + cert + " does not exist",
                "error: tls_key_path: " + key + " does not exist", config + ": 2 problem(s)"), test.err().lines().toList());

        CliRun serve = CliRun.run(folder, Map.of(), "serve", "-c", config.toString());
        assertEquals(1, serve.exitCode(), serve.toString());
        assertTrue(serve.err().startsWith("svc: config: tls_cert_path: " + cert + " does not exist\n"
                + "svc: config: tls_key_path: " + key + " does not exist\n"), serve.err());
    }

    @Test
    void aCertificatePairIsReadAsServeReadsIt() throws IOException {
        TestCertificateAuthority ca = TestCertificateAuthority.create("Test Root");
        Path cert = folder.resolve("cert.pem");
        Path key = folder.resolve("key.pem");
        ca.issue(cert, key, "localhost");
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "tls_cert_path: " + cert + "\ntls_key_path: " + key + "\n");
        CliRun usable = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(0, usable.exitCode(), usable.toString());

        ca.issue(folder.resolve("other.pem"), key, "localhost");
        CliRun mismatched = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, mismatched.exitCode(), mismatched.toString());
        assertTrue(mismatched.err().startsWith("error: tls_cert_path: cannot serve HTTPS from " + cert + " and " + key
                + ": the private key does not belong to the first certificate"), mismatched.err());
    }

    @Test
    void environmentOverridesAreCheckedToo() {
        CliRun run = CliRun.run(folder, Map.of("SVC_LOG_LEVEL", "chatty"), "configtest");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("log.level"), run.err());
    }

    @Test
    void unknownKeysAreWarningsNotErrors() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "no_such_key: 1\n");
        CliRun run = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.err().contains("warning: ") && run.err().contains("no_such_key"), run.err());
    }

    @Test
    void serveRefusesAnInvalidConfigurationNamingTheKey() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "log:\n  level: loud\n");
        CliRun run = CliRun.run(folder, Map.of(), "serve", "-c", config.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("svc: config: log.level"), run.err());
    }

    @Test
    void httpsSettingsAreAccepted() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "tls_letsencrypt_hostname: mesh.example.com\nacme_url: acme://letsencrypt.org/staging\n");
        CliRun test = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(0, test.exitCode(), test.toString());
        assertTrue(!test.err().contains("tls_") && !test.err().contains("acme_"), test.err());
    }

    @Test
    void aLocationDatabaseThatCannotBeReadIsAnErrorNamingTheKeyAndTheFile() throws IOException {
        Path database = Files.writeString(folder.resolve("GeoLite2-City.mmdb"), "not a database");
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "policy:\n  geoip_database: " + database + "\n");
        CliRun test = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, test.exitCode(), test.toString());
        assertTrue(test.err().contains("error: policy.geoip_database: cannot read " + database
                + " as a MaxMind-format database"), test.err());
        Files.writeString(config, "policy:\n  geoip_database: " + folder.resolve("missing.mmdb") + "\n");
        CliRun missing = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, missing.exitCode(), missing.toString());
        assertTrue(missing.err().contains("error: policy.geoip_database: cannot read " + folder.resolve("missing.mmdb")),
                missing.err());
    }

    @Test
    void derpMapFilesAreReadAsServeReadsThemAndEachBadFileIsNamed() throws IOException {
        Path broken = Files.writeString(folder.resolve("broken.json"), "{\"Regions\": {\"900\": ");
        Path empty = Files.writeString(folder.resolve("nothing.yaml"), "other: 1\n");
        Path good = Files.writeString(folder.resolve("good.yaml"), """
                regions:
                  900:
                    regionid: 900
                    regioncode: home
                    regionname: Home
                    nodes:
                      - name: 900a
                        regionid: 900
                        hostname: derp.example.com
                """);
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "derp:\n  paths: [" + broken + ", " + empty + ", " + good + "]\n");
        CliRun run = CliRun.run(folder, Map.of(), "configtest", "-c", config.toString());
        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().contains("error: derp.paths: ") && run.err().contains(broken.toString()), run.err());
        assertTrue(run.err().contains("DERP map file " + empty + " adds no region"), run.err());
        assertTrue(!run.err().contains(good.toString()), run.err());
        assertTrue(run.err().contains("2 problem(s)"), run.err());
    }
}
