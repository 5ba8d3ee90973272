package io.meshcontrol.relay.map;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BootstrapDnsTest {

    @Test
    void answersEveryRelayNodeAndTheServerByName() throws Exception {
        DERPMap map = new DERPMap(null, Map.of(
                900, region(900, "derp.a.example", "192.0.2.1", null),
                901, region(901, "derp.b.example", null, null),
                902, region(902, "derp.gone.example", null, null)), false);
        Map<String, InetAddress[]> dns = Map.of(
                "derp.a.example", new InetAddress[] {InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1})},
                "derp.b.example", new InetAddress[] {InetAddress.getByAddress(new byte[] {(byte) 198, 51, 100, 2}),
                        InetAddress.getByName("2001:db8::2")},
                "mesh.example", new InetAddress[] {InetAddress.getByAddress(new byte[] {(byte) 203, 0, 113, 9})});
        Map<String, List<String>> answer = BootstrapDns.resolve(map, "mesh.example", host -> {
            InetAddress[] found = dns.get(host);
            if (found == null) {
                throw new UnknownHostException(host);
            }
            return found;
        });
        assertEquals(Map.of("derp.a.example", List.of("192.0.2.1"),
                "derp.b.example", List.of("198.51.100.2", "2001:db8:0:0:0:0:0:2"),
                "mesh.example", List.of("203.0.113.9")), answer);
    }

    private static DERPRegion region(int id, String host, String ipv4, String ipv6) {
        return new DERPRegion(id, "r" + id, "R" + id, 0, 0, false, false, List.of(DERPNode.builder()
                .name(id + "a").regionId(id).hostName(host).ipv4(ipv4).ipv6(ipv6).build()));
    }
}
