package io.meshcontrol.server.nodecerts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The UPDATE message's layout (RFC 2136, RFC 8945) and the answers it does not accept; that Knot accepts the
 * messages and that their signatures verify both ways is {@link Rfc2136UpdatesTest}'s part.
 */
class DnsUpdateMessageTest {

    private static final DnsUpdateMessage.TsigKey KEY = new DnsUpdateMessage.TsigKey("Mesh-Key.", "HMAC-SHA256",
            new byte[32]);
    private static final TxtRecord RECORD = new TxtRecord("_acme-challenge.web.mesh.test", "value");

    @Test
    void anAddIsOneUpdateInTheZoneSignedWithTheKey() {
        DnsUpdateMessage add = DnsUpdateMessage.add(0x1234, "mesh.test", RECORD, 60, KEY, 1_700_000_000L);
        ByteBuffer in = ByteBuffer.wrap(add.bytes());
        assertEquals(0x1234, in.getShort() & 0xFFFF);
        assertEquals(0x2800, in.getShort() & 0xFFFF, "opcode UPDATE, a query");
        assertEquals(1, in.getShort(), "one zone");
        assertEquals(0, in.getShort(), "no prerequisites");
        assertEquals(1, in.getShort(), "one update");
        assertEquals(1, in.getShort(), "the TSIG record");
        assertArrayEquals(name("mesh.test"), take(in, 11));
        assertEquals(6, in.getShort(), "type SOA");
        assertEquals(1, in.getShort(), "class IN");
        assertArrayEquals(name("_acme-challenge.web.mesh.test"), take(in, 31));
        assertEquals(16, in.getShort(), "type TXT");
        assertEquals(1, in.getShort(), "class IN: add");
        assertEquals(60, in.getInt());
        assertEquals(6, in.getShort());
        assertEquals(5, in.get());
        assertEquals("value", new String(take(in, 5), StandardCharsets.US_ASCII));
        assertArrayEquals(name("mesh-key"), take(in, 10), "the key name, lowercase");
        assertEquals(250, in.getShort(), "type TSIG");
        assertEquals(255, in.getShort(), "class ANY");
        assertEquals(0, in.getInt());
        in.getShort();
        assertArrayEquals(name("hmac-sha256"), take(in, 13));
        assertEquals(1_700_000_000L, ((long) in.getShort() << 32) | (in.getInt() & 0xFFFFFFFFL));
        assertEquals(300, in.getShort(), "fudge");
        assertEquals(32, in.getShort());
        assertArrayEquals(add.mac(), take(in, 32));
        assertEquals(0x1234, in.getShort() & 0xFFFF, "original ID");
        assertEquals(0, in.getShort(), "no error");
        assertEquals(0, in.getShort(), "no other data");
        assertEquals(0, in.remaining());
    }

    @Test
    void aDeleteRemovesThatRecordOnly() {
        DnsUpdateMessage delete = DnsUpdateMessage.delete(7, "mesh.test", RECORD, KEY, 1_700_000_000L);
        ByteBuffer in = ByteBuffer.wrap(delete.bytes(), 12 + 11 + 4 + 31, 8);
        assertEquals(16, in.getShort());
        assertEquals(254, in.getShort(), "class NONE: delete this record from the set");
        assertEquals(0, in.getInt(), "TTL 0");
    }

    @Test
    void answersThatAreNotASignedSuccessForThisUpdateAreRefused() {
        DnsUpdateMessage add = DnsUpdateMessage.add(0x1234, "mesh.test", RECORD, 60, KEY, 1_700_000_000L);
        byte[] header = {0x12, 0x34, (byte) 0xA8, 0x00, 0, 0, 0, 0, 0, 0, 0, 0};
        assertEquals("the DNS server's answer is not signed with the TSIG key",
                assertThrows(DnsUpdateException.class, () -> add.checkAnswer(header, KEY)).getMessage());

        byte[] refused = header.clone();
        refused[3] = 5;
        assertEquals("the DNS server refused the update: REFUSED (is the key allowed to update this zone?)",
                assertThrows(DnsUpdateException.class, () -> add.checkAnswer(refused, KEY)).getMessage());

        byte[] otherId = header.clone();
        otherId[1] = 0x35;
        assertEquals("the DNS server's answer is not for this update (ID 4661)",
                assertThrows(DnsUpdateException.class, () -> add.checkAnswer(otherId, KEY)).getMessage());

        byte[] cut = Arrays.copyOf(header, 7);
        assertEquals("the DNS server's answer is cut short",
                assertThrows(DnsUpdateException.class, () -> add.checkAnswer(cut, KEY)).getMessage());

        byte[] withTsig = add.bytes().clone();
        withTsig[2] |= (byte) 0x80; // our own request with QR set: a "signed" answer whose MAC is not over our MAC
        assertEquals("the DNS server's answer has a wrong TSIG signature",
                assertThrows(DnsUpdateException.class, () -> add.checkAnswer(withTsig, KEY)).getMessage());
    }

    private static byte[] name(String dotted) {
        ByteBuffer out = ByteBuffer.allocate(dotted.length() + 2);
        for (String label : dotted.split("\\.")) {
            out.put((byte) label.length()).put(label.getBytes(StandardCharsets.US_ASCII));
        }
        return Arrays.copyOf(out.put((byte) 0).array(), out.position());
    }

    private static byte[] take(ByteBuffer in, int count) {
        byte[] bytes = new byte[count];
        in.get(bytes);
        return bytes;
    }
}
