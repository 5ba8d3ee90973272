package io.meshcontrol.core.location;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.testing.GeoDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeoDatabaseTest {

    @TempDir
    Path folder;

    private GeoDatabase database() throws Exception {
        return GeoDatabase.open(GeoDatabases.write(folder.resolve("geo.mmdb"), "81.2.69.0/24=GB/London",
                "89.160.20.0/24=SE", "2a02:ff00::/32=DE/Berlin", "10.0.0.0/8=US"));
    }

    @Test
    void placesPublicAddressesWithCountryAndCityWhereTheDatabaseHasOne() throws Exception {
        GeoDatabase database = database();
        assertEquals(Optional.of(new Location("GB", "London", "81.2.69.142")),
                database.locate(IpAddress.parse("81.2.69.142")));
        assertEquals(Optional.of(new Location("SE", null, "89.160.20.1")), database.locate(IpAddress.parse("89.160.20.1")));
        assertEquals("DE", database.locate(IpAddress.parse("2a02:ff00::1")).orElseThrow().country());
        assertEquals(Optional.empty(), database.locate(IpAddress.parse("1.1.1.1")), "not in the database");
    }

    @Test
    void aMachineIsPlacedByItsFirstPublicEndpointTheDatabaseKnows() throws Exception {
        GeoDatabase database = database();
        // A private address is never looked up, even where the database has it; an unknown public one is passed.
        assertEquals("SE", database.locate(List.of("10.1.2.3:41641", "1.1.1.1:41641", "89.160.20.9:41641",
                "81.2.69.1:41641")).orElseThrow().country());
        assertEquals("DE", database.locate(List.of("[2a02:ff00::7]:41641")).orElseThrow().country());
        assertEquals(Optional.empty(), database.locate(List.of("192.168.1.2:41641", "not an endpoint")));
        assertEquals(Optional.empty(), GeoDatabase.NONE.locate(List.of("81.2.69.1:41641")));
    }

    @Test
    void aFileThatIsNoDatabaseIsRefusedWithItsName() throws Exception {
        Path garbage = Files.writeString(folder.resolve("GeoLite2-City.mmdb"), "not a database");
        MeshException refused = assertThrows(MeshException.class, () -> GeoDatabase.open(garbage));
        assertTrue(refused.getMessage().startsWith("cannot read " + garbage + " as a MaxMind-format database"),
                refused.getMessage());
        MeshException missing = assertThrows(MeshException.class,
                () -> Locations.open(Optional.of(folder.resolve("missing.mmdb"))));
        assertTrue(missing.getMessage().contains("missing.mmdb"), missing.getMessage());
    }

    @Test
    void reloadPutsTheNewerFileInForceAndKeepsTheOldOneWhenTheNewCannotBeRead() throws Exception {
        Path file = GeoDatabases.write(folder.resolve("geo.mmdb"), "81.2.69.0/24=GB");
        Locations locations = Locations.open(Optional.of(file));
        GeoDatabase first = locations.current();
        assertEquals("GB", first.locate(IpAddress.parse("81.2.69.1")).orElseThrow().country());

        GeoDatabases.write(folder.resolve("next.mmdb"), "81.2.69.0/24=FR");
        Files.move(folder.resolve("next.mmdb"), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(locations.reload());
        assertEquals("FR", locations.current().locate(IpAddress.parse("81.2.69.1")).orElseThrow().country());
        assertEquals("GB", first.locate(IpAddress.parse("81.2.69.1")).orElseThrow().country(),
                "the replaced database still answers lookups under way");

        GeoDatabase second = locations.current();
        Files.writeString(file, "broken");
        assertFalse(locations.reload());
        assertSame(second, locations.current());
        assertFalse(Locations.none().reload());
    }
}
