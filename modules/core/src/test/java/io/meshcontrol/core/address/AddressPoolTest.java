package io.meshcontrol.core.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AddressPoolTest {

    private final AddressPool pool = new AddressPool("100.64.0.0/10", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);

    @Test
    void firstAddressesAreSequentialWithMatchingIpv6() {
        assertEquals(new AddressPool.Addresses("100.64.0.1", "fd7a:115c:a1e0::6440:1"), pool.allocate(Set.of()));
        assertEquals("100.64.0.2", pool.allocate(Set.of("100.64.0.1")).ipv4());
        assertEquals("100.64.0.1", pool.allocate(Set.of("100.64.0.2")).ipv4(), "a freed address is found again");
    }

    @Test
    void reservedRangesAreSkipped() {
        AddressPool narrow = new AddressPool("100.100.100.0/23", "fd7a:115c:a1e0::/48", AddressPool.Allocation.SEQUENTIAL);
        assertEquals("100.100.101.0", narrow.allocate(Set.of()).ipv4(), "100.100.100.0/24 holds the client resolver");
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
        used.add(tiny.allocate(used).ipv4());
        used.add(tiny.allocate(used).ipv4());
        assertThrows(MeshException.class, () -> tiny.allocate(used));
    }

    @Test
    void randomAllocationStaysInsideThePrefixAndAvoidsUsedOnes() {
        AddressPool random = new AddressPool("100.64.0.0/29", "fd7a:115c:a1e0::/48", AddressPool.Allocation.RANDOM);
        Set<String> used = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            String ip = random.allocate(used).ipv4();
            assertTrue(ip.startsWith("100.64.0."), ip);
            assertFalse(used.contains(ip));
            used.add(ip);
        }
        assertEquals(6, used.size());
    }

    @Test
    void theIpv6AddressEndsInTheIpv4OneInGosTextForm() {
        AddressPool pool64 = new AddressPool("100.64.0.0/10", "FD7A:115C:A1E0:AB12::/64", AddressPool.Allocation.SEQUENTIAL);
        assertEquals("fd7a:115c:a1e0:ab12::6440:1", pool64.allocate(Set.of()).ipv6());
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
