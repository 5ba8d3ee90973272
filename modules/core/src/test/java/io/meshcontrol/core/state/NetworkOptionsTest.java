package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.wire.DNSRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the configuration gives the network state (the server starts its network with these). */
class NetworkOptionsTest {

    @TempDir
    Path folder;

    @Test
    void prefixesAllocationNodeExpiryRouteFailoverAndKeyCapsComeFromTheConfiguration() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, """
                prefixes:
                  v4: 100.80.0.0/16
                  v6: fd7a:115c:a1e0:ab::/64
                  allocation: random
                node:
                  expiry: 720h
                  routes:
                    ha: false
                api_keys:
                  max_expiration: 2160h
                preauth_keys:
                  max_expiration: 48h
                """);
        NetworkOptions options = NetworkOptions.from(ConfigLoader.load(
                new ConfigRequest(config, Map.of(), folder, folder)).config());
        assertEquals(new NetworkOptions("100.80.0.0/16", "fd7a:115c:a1e0:ab::/64", AddressPool.Allocation.RANDOM,
                Duration.ofHours(720), false, new MaxKeyLifetimes(Duration.ofDays(90), Duration.ofHours(48)),
                options.dns(), options.map()), options);
    }

    @Test
    void theFixedPartsOfEveryMapComeFromTheConfiguration() throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, """
                dns:
                  base_domain: corp.internal
                  extra_records:
                    - {name: grafana.corp.internal, type: A, value: 100.64.0.3}
                control_dial_plan: ["192.0.2.10", "2001:db8::10"]
                """);
        MapOptions map = NetworkOptions.from(ConfigLoader.load(
                new ConfigRequest(config, Map.of(), folder, folder)).config()).map();
        assertEquals("corp.internal", map.baseDomain());
        assertEquals(List.of(new DNSRecord("grafana.corp.internal", "A", "100.64.0.3")), map.extraRecords());
        assertEquals(List.of(IpAddress.parse("192.0.2.10"), IpAddress.parse("2001:db8::10")),
                map.dialPlan().candidates().stream().map(c -> c.ip()).toList());
        assertEquals(List.of(2, 1), map.dialPlan().candidates().stream().map(c -> c.priority()).toList(),
                "the first address is preferred");
        assertFalse(map.httpsCertificates());
    }
}
