package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.state.NetworkOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What svc serve takes from the configuration, and what it announces. */
class ServeOptionsTest {

    @TempDir
    Path folder;

    @Test
    void prefixesAllocationNodeExpiryAndRouteFailoverComeFromTheConfiguration() throws IOException {
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
                """);
        NetworkOptions options = ServeCommand.networkOptions(ConfigLoader.load(
                new ConfigRequest(config, Map.of(), folder, folder)).config());
        assertEquals(new NetworkOptions("100.80.0.0/16", "fd7a:115c:a1e0:ab::/64", AddressPool.Allocation.RANDOM,
                Duration.ofHours(720), false), options);
    }

    @Test
    void theReadyLineNeverClaimsHttpsForThePlainHttpListener() {
        String line = ServeCommand.readyLine("T1", URI.create("http://127.0.0.1:8080"), "https://mesh.example.com");
        assertTrue(line.contains("serving plain HTTP on http://127.0.0.1:8080"), line);
        assertTrue(line.contains("clients reach it at https://mesh.example.com (server_url), through a proxy that "
                + "terminates TLS"), line);
        assertEquals("network T1 ready at http://127.0.0.1:8080",
                ServeCommand.readyLine("T1", URI.create("http://127.0.0.1:8080"), "http://127.0.0.1:8080"));
    }
}
