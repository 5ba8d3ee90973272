package io.meshcontrol.core.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AddressPoolTest {

    private final AddressPool pool = new AddressPool("100.64.0.0/10", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);

    @Test
    void firstAddressesAreSequentialWithMatchingIpv6() {
        assertEquals(new AddressPool.Addresses("100.64.0.1", "fd7a:115c:a1e0::6440:1"), pool.allocate(ip -> false));
        assertEquals("100.64.0.2", pool.allocate(Set.of("100.64.0.1")::contains).ipv4());
        assertEquals("100.64.0.3", pool.allocate(Set.of("100.64.0.2")::contains).ipv4(),
                "goes on after the last one handed out: a freed address does not go to the next machine");
    }

    @Test
    void theSearchResumesWhereItLeftOffProbingOnlyTheAddressesAfterIt() {
        Set<String> used = new HashSet<>();
        List<String> probed = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            used.add(pool.allocate(ip -> {
                probed.add(ip);
                return used.contains(ip);
            }).ipv4());
        }
        assertEquals(1000, probed.size(), "one probe per address, however many are taken");
        used.add("100.64.3.233"); // taken by another instance meanwhile: probed and passed
        assertEquals("100.64.3.234", pool.allocate(used::contains).ipv4());
    }

    @Test
    void aFreedAddressComesBackAfterTheWrap() {
        AddressPool tiny = new AddressPool("100.64.0.0/29", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);
        Set<String> used = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            used.add(tiny.allocate(used::contains).ipv4());
        }
        used.remove("100.64.0.2");
        assertEquals("100.64.0.2", tiny.allocate(used::contains).ipv4());
    }

    @Test
    void reservedRangesAreSkipped() {
        AddressPool narrow = new AddressPool("100.100.100.0/23", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);
        assertEquals("100.100.101.0", narrow.allocate(ip -> false).ipv4(), "100.100.100.0/24 holds the client resolver");
    }

    @Test
    void aClaimedAddressGetsItsIpv6PairAndMustBeAUsableAddressOfThePrefix() {
        assertEquals(new AddressPool.Addresses("100.64.7.9", "fd7a:115c:a1e0::6440:709"), pool.claim("100.64.7.9"));
        AddressPool tiny = new AddressPool("100.64.0.0/30", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);
        for (String refused : new String[] {"100.64.0.0", "100.64.0.3", "100.64.0.4", "10.0.0.1"}) {
            MeshException e = assertThrows(MeshException.class, () -> tiny.claim(refused), refused);
            assertEquals(MeshException.Reason.INVALID, e.reason());
        }
        assertThrows(MeshException.class, () -> pool.claim("100.100.100.100"), "the client resolver");
        assertThrows(MeshException.class, () -> pool.claim("fd7a:115c:a1e0::1"));
        assertThrows(MeshException.class, () -> pool.claim("not-an-address"));
    }

    @Test
    void exhaustionIsARefusal() {
        AddressPool tiny = new AddressPool("100.64.0.0/30", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);
        Set<String> used = new HashSet<>();
        used.add(tiny.allocate(used::contains).ipv4());
        used.add(tiny.allocate(used::contains).ipv4());
        assertThrows(MeshException.class, () -> tiny.allocate(used::contains));
    }

    @Test
    void randomAllocationStaysInsideThePrefixAndAvoidsUsedOnes() {
        AddressPool random = new AddressPool("100.64.0.0/29", "fd7a:115c:a1e0::/48", AddressPool.Allocation.RANDOM);
        Set<String> used = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            String ip = random.allocate(used::contains).ipv4();
            assertTrue(ip.startsWith("100.64.0."), ip);
            assertFalse(used.contains(ip));
            used.add(ip);
        }
        assertEquals(6, used.size());
    }

    @Test
    void theIpv6AddressEndsInTheIpv4OneInGosTextForm() {
        AddressPool pool64 = new AddressPool("100.64.0.0/10", "FD7A:115C:A1E0:AB12::/64", AddressPool.Allocation.SEQUENTIAL);
        assertEquals("fd7a:115c:a1e0:ab12::6440:1", pool64.allocate(ip -> false).ipv6());
    }

    @Test
    void eachPrefixMustBeOfItsFamily() {
        assertThrows(IllegalArgumentException.class,
                () -> new AddressPool("fd7a:115c:a1e0::/48", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL));
        assertThrows(IllegalArgumentException.class,
                () -> new AddressPool("100.64.0.0/10", "100.64.0.0/10", AddressPool.Allocation.SEQUENTIAL));
        assertThrows(IllegalArgumentException.class,
                () -> new AddressPool("100.64.0.0", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL));
    }
}
