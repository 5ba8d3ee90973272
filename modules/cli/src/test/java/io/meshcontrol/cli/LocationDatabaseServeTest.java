package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.GeoDatabases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code svc serve} with {@code policy.geoip_database} and the policy in the database: SIGHUP rereads the location
 * database (there is no policy file to reload), and a database that cannot be read stops the start.
 */
class LocationDatabaseServeTest {

    @TempDir
    Path folder;

    @Test
    void sighupRereadsTheLocationDatabase() throws Exception {
        Path database = GeoDatabases.write(folder.resolve("GeoLite2-City.mmdb"), "81.2.69.0/24=GB/London");
        Path log = folder.resolve("serve.log");
        Process serve = ServeProcess.start(folder, config(database), log);
        try {
            ServeProcess.awaitClient(folder.resolve("data/cli.json"), serve);
            assertTrue(ServeProcess.log(log).contains("location database " + database + "; reread on SIGHUP"), ServeProcess.log(log));
            Assumptions.assumeFalse(ServeProcess.log(log).contains("SIGHUP is ignored in this process"),
                    "these tests run with SIGHUP ignored (nohup), which svc serve inherits");

            Files.move(GeoDatabases.write(folder.resolve("newer.mmdb"), "81.2.69.0/24=FR/Paris"), database,
                    StandardCopyOption.REPLACE_EXISTING);
            new ProcessBuilder("kill", "-HUP", Long.toString(serve.pid())).start().waitFor(10, TimeUnit.SECONDS);
            Await.until("SIGHUP rereads the location database", Await.DEFAULT_TIMEOUT,
                    () -> ServeProcess.log(log).contains("location database reloaded: " + database),
                    () -> ServeProcess.log(log));
            assertTrue(serve.isAlive(), "SIGHUP reloads; it does not end the server");
        } finally {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aDatabaseThatCannotBeReadStopsTheStart() throws Exception {
        Path database = Files.writeString(folder.resolve("GeoLite2-City.mmdb"), "not a database");
        Path log = folder.resolve("serve.log");
        Process serve = ServeProcess.start(folder, config(database), log);
        assertTrue(serve.waitFor(60, TimeUnit.SECONDS), "svc serve should stop");
        assertEquals(1, serve.exitValue());
        assertTrue(ServeProcess.log(log).contains("policy.geoip_database: cannot read " + database), ServeProcess.log(log));
    }

    private Path config(Path database) throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, """
                listen_addr: 127.0.0.1:0
                metrics_listen_addr: null
                derp:
                  server:
                    stun_listen_addr: 127.0.0.1:0
                    tls_listen_addr: 127.0.0.1:0
                database:
                  sqlite:
                    path: %s
                cli:
                  local_credential_path: %s
                policy:
                  geoip_database: %s
                """.formatted(folder.resolve("data/db.sqlite"),
                folder.resolve("data/cli.json"), database));
        return config;
    }


}
