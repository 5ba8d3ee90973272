package io.meshcontrol.relay.stun;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class StunServerTest {

    /** A Binding Request laid out as Tailscale's {@code stun.Request} builds it: SOFTWARE "tailnode" and FINGERPRINT. */
    static byte[] tailscaleRequest(byte[] transaction) {
        ByteBuffer b = ByteBuffer.allocate(40);
        b.putShort((short) 0x0001).putShort((short) 20).putInt(0x2112a442).put(transaction);
        b.putShort((short) 0x8022).putShort((short) 8).put("tailnode".getBytes(StandardCharsets.US_ASCII));
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, 32);
        b.putShort((short) 0x8028).putShort((short) 4).putInt((int) crc.getValue() ^ 0x5354554e);
        return b.array();
    }

    /** Reads XOR-MAPPED-ADDRESS the way a client does. */
    static InetSocketAddress mappedAddress(ByteBuffer response, byte[] transaction) throws Exception {
        assertEquals(0x0101, response.getShort(0));
        byte[] tx = new byte[12];
        response.get(8, tx);
        assertArrayEquals(transaction, tx);
        assertEquals(0x0020, response.getShort(20));
        int family = response.get(25);
        int port = (response.getShort(26) & 0xffff) ^ 0x2112;
        byte[] mask = ByteBuffer.allocate(16).putInt(0x2112a442).put(transaction).array();
        byte[] ip = new byte[family == 1 ? 4 : 16];
        for (int i = 0; i < ip.length; i++) {
            ip[i] = (byte) (response.get(28 + i) ^ mask[i]);
        }
        assertEquals(response.limit(), 20 + (response.getShort(2) & 0xffff));
        return new InetSocketAddress(InetAddress.getByAddress(ip), port);
    }

    @Test
    void bindingRequestIsAnsweredWithTheSendersAddress() throws Exception {
        try (StunServer stun = StunServer.start(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            assertTrue(stun.address().getPort() > 0);
            byte[] tx = "abcdefghijkl".getBytes(StandardCharsets.US_ASCII);
            client.send(ByteBuffer.wrap(tailscaleRequest(tx)), stun.address());
            ByteBuffer response = ByteBuffer.allocate(1500);
            client.receive(response);
            response.flip();
            assertEquals(client.getLocalAddress(), mappedAddress(response, tx));
        }
    }

    @Test
    void ipv6AddressIsXoredWithCookieAndTransaction() throws Exception {
        byte[] tx = new byte[12];
        tx[11] = 5;
        InetSocketAddress from = new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 41641);
        ByteBuffer response = ByteBuffer.wrap(StunMessages.bindingResponse(tx, from));
        assertEquals(from, mappedAddress(response, tx));
    }

    @Test
    void otherDatagramsAreNotBindingRequests() {
        assertTrue(StunMessages.bindingRequestTransaction(ByteBuffer.wrap(new byte[10])).isEmpty());
        byte[] wrongCookie = tailscaleRequest(new byte[12]);
        wrongCookie[4] = 0;
        assertTrue(StunMessages.bindingRequestTransaction(ByteBuffer.wrap(wrongCookie)).isEmpty());
        byte[] truncated = java.util.Arrays.copyOf(tailscaleRequest(new byte[12]), 36);
        assertTrue(StunMessages.bindingRequestTransaction(ByteBuffer.wrap(truncated)).isEmpty());
        assertTrue(StunMessages.bindingRequestTransaction(ByteBuffer.wrap(tailscaleRequest(new byte[12]))).isPresent());
    }
}
