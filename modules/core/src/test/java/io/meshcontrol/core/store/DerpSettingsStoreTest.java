package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.DerpSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DerpSettingsStoreTest {

    @TempDir
    Path folder;

    @Test
    void savedSettingsReadBackUntilDeleted() {
        Database database = Database.open(folder.resolve("db.sqlite"), true);
        DerpSettingsStore store = new DerpSettingsStore();
        DerpSettings settings = new DerpSettings(List.of("https://maps.example/a.json"), false, Duration.ofMinutes(90),
                false, "192.0.2.1", null, false, false, "127.0.0.1:0",
                List.of(new DerpSettings.CustomRelay(900, "home", "relay.example.com", null)));
        assertTrue(database.jdbi().withHandle(store::read).isEmpty(), "nothing saved: the configuration applies");
        database.jdbi().useTransaction(h -> store.write(h, settings, Instant.now(), "local-admin"));
        assertEquals(settings, database.jdbi().withHandle(store::read).orElseThrow());
        database.jdbi().useTransaction(store::delete);
        assertTrue(database.jdbi().withHandle(store::read).isEmpty());
    }
}
