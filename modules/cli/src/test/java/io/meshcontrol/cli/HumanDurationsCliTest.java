package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.HumanDuration;
import io.meshcontrol.api.NewPreAuthKeyDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Duration options read as people write them (30d, 2w, 90 days), and a new pre-auth key's shared defaults. */
class HumanDurationsCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @BeforeEach
    void user() {
        assertEquals(0, cli.run("users", "create", "--name", "odin").exitCode());
    }

    /** How long from about now the last listed key of {@code kind} is valid (in minutes, rounded). */
    private long minutesLeft(String kind, String listField) {
        CliRun listed = cli.run(kind, "list", "-o", "json");
        assertEquals(0, listed.exitCode(), listed.toString());
        JsonNode keys = ApiJson.mapper(false).readTree(listed.out()).path(listField);
        Instant expires = Instant.parse(keys.get(keys.size() - 1).path("expiresAt").stringValue());
        return Math.round(Duration.between(Instant.now(), expires).toSeconds() / 60.0);
    }

    @Test
    void aPreAuthKeyWithoutOptionsGetsTheSharedDefaults() {
        CliRun created = cli.run("preauthkeys", "create", "--user", "odin");
        assertEquals(0, created.exitCode(), created.toString());
        assertEquals(HumanDuration.parse(NewPreAuthKeyDefaults.STANDARD.expiration()).toMinutes(),
                minutesLeft("preauthkeys", "preAuthKeys"));
        JsonNode key = ApiJson.mapper(false).readTree(cli.run("preauthkeys", "list", "-o", "json").out())
                .path("preAuthKeys").get(0);
        assertEquals(NewPreAuthKeyDefaults.STANDARD.reusable(), key.path("reusable").booleanValue());
        assertEquals(NewPreAuthKeyDefaults.STANDARD.ephemeral(), key.path("ephemeral").booleanValue());
        assertEquals(NewPreAuthKeyDefaults.STANDARD.preauthorized(), key.path("preauthorized").booleanValue());
    }

    @Test
    void preAuthKeyLifetimesInDaysAndWeeks() {
        assertEquals(0, cli.run("preauthkeys", "create", "--user", "odin", "--expiration", "2w").exitCode());
        assertEquals((14 * 24) * 60, minutesLeft("preauthkeys", "preAuthKeys"));
        assertEquals(0, cli.run("preauthkeys", "create", "--user", "odin", "--expiration", "1 week").exitCode());
        assertEquals((7 * 24) * 60, minutesLeft("preauthkeys", "preAuthKeys"));
        assertEquals(0, cli.run("preauthkeys", "create", "--user", "odin", "--expiration", "1h30m").exitCode());
        assertEquals(90, minutesLeft("preauthkeys", "preAuthKeys"));
    }

    @Test
    void apiKeyLifetimesAsWords() {
        assertEquals(0, cli.run("apikeys", "create", "--expiration", "90 days").exitCode());
        assertEquals((90 * 24) * 60, minutesLeft("apikeys", "apiKeys"));
        assertEquals(0, cli.run("apikeys", "create", "--expiration", "30d").exitCode());
        assertEquals((30 * 24) * 60, minutesLeft("apikeys", "apiKeys"));
    }

    @Test
    void anUnreadableDurationIsOneLineAndNoRequest() {
        CliRun refused = cli.run("preauthkeys", "create", "--user", "odin", "--expiration", "1 fortnight");
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.err().lines().findFirst().orElse("").contains("'--expiration': unknown unit \"fortnight\""), refused.err());
        assertEquals(0, ApiJson.mapper(false).readTree(cli.run("preauthkeys", "list", "-o", "json").out())
                .path("preAuthKeys").size());
    }
}
