package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class EarlyPayloadTest {

    private static final byte[] JSON = "{\"nodeKeyChallenge\":\"chalpub:00\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void encodesMagicLengthAndJson() {
        byte[] payload = EarlyPayload.encode(JSON);
        assertEquals("ffffff5453" + "00000021", HexFormat.of().formatHex(payload, 0, 9));
        assertArrayEquals(JSON, Arrays.copyOfRange(payload, 9, payload.length));
    }

    @Test
    void headerYieldsTheJsonLength() throws Exception {
        assertEquals(OptionalInt.of(JSON.length), EarlyPayload.jsonLength(EarlyPayload.encode(JSON)));
    }

    /** A server that sends no early payload starts with its HTTP/2 SETTINGS frame header. */
    @Test
    void http2FrameHeaderIsNoEarlyPayload() throws Exception {
        byte[] settingsHeader = {0, 0, 18, 4, 0, 0, 0, 0, 0};
        assertEquals(OptionalInt.empty(), EarlyPayload.jsonLength(settingsHeader));
    }

    @Test
    void lengthAboveTheClientsLimitIsRefused() {
        byte[] header = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 'T', 'S', 0, (byte) 0xa0, 0, 1};
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> EarlyPayload.jsonLength(header));
        assertEquals(NoiseProtocolException.Problem.EARLY_PAYLOAD_TOO_LARGE, e.problem());
        assertThrows(IllegalArgumentException.class,
                () -> EarlyPayload.encode(new byte[EarlyPayload.MAX_JSON_LENGTH + 1]));
    }
}
