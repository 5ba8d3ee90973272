package io.meshcontrol.core.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EgressGuardTest {

    /** Private targets allowed and loopback allowed: the most permissive guard the configuration can make. */
    private static final EgressGuard PERMISSIVE = new EgressGuard(false, true);

    private static Optional<String> refusal(EgressGuard guard, String literal) throws Exception {
        return guard.refusal(InetAddress.getByName(literal));
    }

    @Test
    void ipv4AddressesWrittenOtherThanAsFourDecimalNumbersAreRefusedBeforeResolving() {
        for (String host : new String[] {"0177.0.0.1", "0x7f.0.0.1", "0x7f000001", "127.1", "127.0.1", "2130706433",
                "017700000001", "127.0.0.01", "256.0.0.1", "127.0.0.1.", "1.2.3.4.5", "example.0x10"}) {
            Optional<String> refusal = EgressGuard.hostRefusal(host);
            assertTrue(refusal.isPresent() && refusal.get().contains("four decimal numbers"), host + ": " + refusal);
        }
        for (String host : new String[] {"127.0.0.1", "10.0.0.255", "0.0.0.0", "hooks.example.com", "example.com.",
                "1password.com", "10.example", "[::1]", "0x.example"}) {
            assertEquals(Optional.empty(), EgressGuard.hostRefusal(host), host);
        }
    }

    @Test
    void theLoopbackRefusalNamesTheSettingThatAllowsIt() throws Exception {
        assertEquals(Optional.of("the loopback address 127.0.0.1 (egress.allow_loopback_targets is off)"),
                refusal(EgressGuard.DEFAULT, "127.0.0.1"));
    }

    @Test
    void cloudMetadataServicesAreRefusedEvenWherePrivateTargetsAreAllowed() throws Exception {
        for (String metadata : new String[] {"100.100.100.200", "168.63.129.16", "192.0.0.192", "fd00:ec2::254",
                "fd00:ec2::23", "fd20:ce::254"}) {
            Optional<String> refusal = refusal(PERMISSIVE, metadata);
            assertTrue(refusal.isPresent() && refusal.get().contains("cloud metadata"), metadata + ": " + refusal);
        }
        assertTrue(refusal(PERMISSIVE, "169.254.169.254").orElseThrow().contains("link-local"));
        assertTrue(refusal(PERMISSIVE, "fe80::a9fe:a9fe").orElseThrow().contains("link-local"));
    }

    @Test
    void theirNeighboursStayAllowed() throws Exception {
        for (String neighbour : new String[] {"100.100.100.201", "100.64.0.1", "fd00:ec2::255", "fd20:ce::253",
                "192.0.0.193", "10.0.0.1", "203.0.113.7", "2001:db8::1"}) {
            assertEquals(Optional.empty(), refusal(PERMISSIVE, neighbour), neighbour);
        }
    }

    @Test
    void ipv6AddressesCarryingARefusedIpv4AddressAreRefused() throws Exception {
        // NAT64, IPv4-compatible, 6to4 and IPv4-mapped spellings of the link-local metadata address and of loopback
        for (String wrapped : new String[] {"64:ff9b::a9fe:a9fe", "::a9fe:a9fe", "2002:a9fe:a9fe::1",
                "::ffff:169.254.169.254", "64:ff9b::6464:64c8"}) {
            Optional<String> refusal = refusal(PERMISSIVE, wrapped);
            assertTrue(refusal.isPresent(), wrapped);
        }
        assertTrue(refusal(EgressGuard.DEFAULT, "64:ff9b::7f00:1").orElseThrow().contains("loopback"));
        assertEquals(Optional.empty(), refusal(PERMISSIVE, "64:ff9b::cb00:7107"), "NAT64 to a public address");
    }

    @Test
    void theSettingsStillDecideLoopbackAndPrivateRanges() throws Exception {
        assertTrue(refusal(EgressGuard.DEFAULT, "127.0.0.1").orElseThrow().contains("loopback"));
        assertEquals(Optional.empty(), refusal(PERMISSIVE, "::1"));
        assertEquals(Optional.empty(), refusal(EgressGuard.DEFAULT, "192.168.1.1"));
        assertTrue(refusal(new EgressGuard(true, false), "fd12::1").orElseThrow().contains("private"));
        assertTrue(refusal(PERMISSIVE, "0.0.0.0").orElseThrow().contains("unspecified"));
        assertTrue(refusal(PERMISSIVE, "::").orElseThrow().contains("unspecified"));
    }
}
