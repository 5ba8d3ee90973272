package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
                options.dns()), options);
    }
}
