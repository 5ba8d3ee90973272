package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.NodePublicKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

/** Reading client requests: lenient where Go's decoder is, strict about values that have a form. */
class WireReadTest {

    private static final String KEY = NodePublicKey.fromRaw(WireSamples.pattern(1)).toText();

    @Test
    void unknownFieldsFromNewerClientsAreSkipped() {
        MapRequest request = WireJson.read("{\"Version\":200,\"NodeKey\":\"" + KEY + "\",\"FutureField\":[1,{}],"
                + "\"Stream\":true}", MapRequest.class);
        assertEquals(200, request.version());
        assertTrue(request.stream());
    }

    @Test
    void nullForNumbersAndBooleansLeavesThemZeroAsInGo() {
        MapRequest request = WireJson.read("{\"Version\":null,\"Stream\":null,\"Endpoints\":null}", MapRequest.class);
        assertEquals(0, request.version());
        assertFalse(request.stream());
        assertEquals(List.of(), request.endpoints());
    }

    @Test
    void missingKeysReadAsTheZeroKey() {
        MapRequest request = WireJson.read("{\"Version\":130}", MapRequest.class);
        assertTrue(request.nodeKey().isZero());
        assertTrue(request.discoKey().isZero());
    }

    @Test
    void theZeroTimeReadsAsAbsent() {
        RegisterRequest request = WireJson.read("{\"Expiry\":\"0001-01-01T00:00:00Z\"}", RegisterRequest.class);
        assertNull(request.expiry());
        RegisterRequest logout = WireJson.read("{\"Expiry\":\"1970-01-01T00:02:03Z\"}", RegisterRequest.class);
        assertEquals(Instant.ofEpochSecond(123), logout.expiry());
    }

    @Test
    void aPatchKeepsTheZeroTimeAsNeverExpires() {
        PeerChange change = WireJson.read("{\"NodeID\":3,\"KeyExpiry\":\"0001-01-01T00:00:00Z\"}", PeerChange.class);
        assertEquals(GoTime.ZERO, change.keyExpiry());
    }

    @Test
    void trailingDataIsAnError() {
        assertThrows(JacksonException.class, () -> WireJson.read("{\"Version\":1} {}", MapRequest.class));
    }

    @Test
    void badKeysAddressesAndTimesAreErrors() {
        assertThrows(JacksonException.class, () -> WireJson.read("{\"NodeKey\":\"mkey:" + "0".repeat(64) + "\"}",
                MapRequest.class));
        assertThrows(JacksonException.class, () -> WireJson.read("{\"NodeKey\":\"nodekey:00\"}", MapRequest.class));
        assertThrows(JacksonException.class, () -> WireJson.read("{\"Endpoints\":[\"1.2.3.4\"]}", MapRequest.class));
        assertThrows(JacksonException.class, () -> WireJson.read("{\"Expiry\":\"yesterday\"}",
                RegisterRequest.class));
        assertThrows(JacksonException.class, () -> WireJson.read("{\"Hostinfo\":{\"RoutableIPs\":[\"10.0.0.0\"]}}",
                RegisterRequest.class));
        assertThrows(JacksonException.class, () -> WireJson.read("{\"Hostinfo\":[]}", RegisterRequest.class));
    }

    @Test
    void upperCaseKeyHexIsAccepted() {
        MapRequest request = WireJson.read("{\"NodeKey\":\"" + KEY.toUpperCase().replace("NODEKEY:", "nodekey:")
                + "\"}", MapRequest.class);
        assertEquals(KEY, request.nodeKey().toText());
    }

    @Test
    void requestHelpersSayWhatKindOfPollItIs() {
        MapRequest stream = WireJson.read("{\"Version\":130,\"Compress\":\"zstd\",\"Stream\":true}", MapRequest.class);
        assertTrue(stream.wantsZstd());
        assertTrue(stream.isReadOnlyStream());
        assertFalse(stream.isLiteUpdate());
        MapRequest lite = WireJson.read("{\"Version\":130,\"OmitPeers\":true}", MapRequest.class);
        assertTrue(lite.isLiteUpdate());
        assertFalse(lite.wantsZstd());
    }

    @Test
    void capMapArgumentsArePassedOnAsTheyCame() {
        Node node = WireJson.read("{\"CapMap\":{\"a\":[{\"x\": [1, 2.50, \"s\"]}, null], \"b\":null}}", Node.class);
        assertEquals(List.of(RawJson.parse("{\"x\":[1,2.50,\"s\"]}"), RawJson.parse("null")), node.capMap().get("a"));
        assertTrue(node.capMap().containsKey("b"));
        assertNull(node.capMap().get("b"));
        assertEquals("{\"a\":[{\"x\":[1,2.50,\"s\"]},null],\"b\":null}",
                WireJson.writeString(node).replaceAll(".*\"CapMap\":(.*)}$", "$1"));
    }
}
