package io.meshcontrol.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "Authentication" item 7: who may read the debug pages, rule by rule. */
class DebugAccessTest {

    @TempDir
    Path folder;

    private static InetAddress ip(String text) throws Exception {
        return InetAddress.getByName(text);
    }

    @Test
    void loopbackIsAllowedWithoutKeyUnlessForwarded() throws Exception {
        assertTrue(DebugAccess.LOCAL_ONLY.allows(ip("127.0.0.1"), false, null));
        assertTrue(DebugAccess.LOCAL_ONLY.allows(ip("::1"), false, null));
        assertFalse(DebugAccess.LOCAL_ONLY.allows(ip("127.0.0.1"), true, null), "a proxy on this machine");
        assertFalse(DebugAccess.LOCAL_ONLY.allows(ip("192.0.2.7"), false, null));
    }

    @Test
    void everyForwardingHeaderMarksARequestAsForwarded() {
        for (String name : java.util.List.of("X-Forwarded-For", "Forwarded", "X-Real-IP", "x-forwarded-host",
                "True-Client-IP", "Via")) {
            io.undertow.util.HeaderMap headers = new io.undertow.util.HeaderMap();
            headers.put(new io.undertow.util.HttpString(name), "198.51.100.1");
            assertTrue(DebugAccess.forwarded(headers), name);
        }
        io.undertow.util.HeaderMap plain = new io.undertow.util.HeaderMap();
        plain.put(io.undertow.util.Headers.USER_AGENT, "curl/8");
        assertFalse(DebugAccess.forwarded(plain));
    }

    @Test
    void theKeyFromTheFileLetsAnyAddressIn() throws Exception {
        Path keyFile = Files.writeString(folder.resolve("debug.key"), "s3cret-key\n");
        DebugAccess access = DebugAccess.fromEnvironment(Map.of("MESH_DEBUG_KEY_PATH", keyFile.toString()));
        assertTrue(access.allows(ip("192.0.2.7"), false, "s3cret-key"));
        assertTrue(access.allows(ip("192.0.2.7"), true, "s3cret-key"));
        assertFalse(access.allows(ip("192.0.2.7"), false, "s3cret"));
        assertFalse(access.allows(ip("192.0.2.7"), false, ""));
        assertFalse(access.allows(ip("192.0.2.7"), false, null));
    }

    @Test
    void theExtraAddressIsAllowedOnlyWhenNotForwarded() throws Exception {
        DebugAccess access = DebugAccess.fromEnvironment(Map.of("MESH_ALLOW_DEBUG_IP", "192.0.2.7"));
        assertTrue(access.allows(ip("192.0.2.7"), false, null));
        assertFalse(access.allows(ip("192.0.2.7"), true, null));
        assertFalse(access.allows(ip("192.0.2.8"), false, null));
        assertTrue(DebugAccess.fromEnvironment(Map.of("MESH_ALLOW_DEBUG_IP", "2001:db8::7"))
                .allows(ip("2001:db8:0::7"), false, null));
        // A dual-stack socket reports an IPv4 peer as the IPv4 address, whichever way the variable writes it.
        assertTrue(DebugAccess.fromEnvironment(Map.of("MESH_ALLOW_DEBUG_IP", "::ffff:192.0.2.7"))
                .allows(ip("192.0.2.7"), false, null));
    }

    @Test
    void badVariablesStopTheStartNamingTheVariable() throws Exception {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DebugAccess.fromEnvironment(
                Map.of("MESH_DEBUG_KEY_PATH", folder.resolve("missing").toString()))).getMessage()
                .startsWith("MESH_DEBUG_KEY_PATH: cannot read"));
        Path empty = Files.writeString(folder.resolve("empty.key"), " \n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DebugAccess.fromEnvironment(
                Map.of("MESH_DEBUG_KEY_PATH", empty.toString()))).getMessage().contains("is empty"));
        assertEquals("MESH_ALLOW_DEBUG_IP must be one IP address, got \"debug.example.com\"",
                assertThrows(IllegalArgumentException.class, () -> DebugAccess.fromEnvironment(
                        Map.of("MESH_ALLOW_DEBUG_IP", "debug.example.com"))).getMessage());
        assertEquals(DebugAccess.LOCAL_ONLY, DebugAccess.fromEnvironment(Map.of("MESH_ALLOW_DEBUG_IP", "")));
    }
}
