package io.meshcontrol.relay.stun;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The two STUN messages a relay's STUN service needs (RFC 5389): a Binding Request in, a Binding Success Response
 * with XOR-MAPPED-ADDRESS out. Tailscale's clients ({@code net/stun}) read XOR-MAPPED-ADDRESS and expect no
 * FINGERPRINT in the answer.
 */
public final class StunMessages {

    public static final int HEADER_LENGTH = 20;
    public static final int TRANSACTION_ID_LENGTH = 12;
    static final int MAGIC_COOKIE = 0x2112a442;
    static final short BINDING_REQUEST = 0x0001;
    static final short BINDING_SUCCESS = 0x0101;
    static final short XOR_MAPPED_ADDRESS = 0x0020;

    private StunMessages() {
    }

    /**
     * The transaction id of a Binding Request, or empty for anything else. Checked: the top two bits zero (what
     * separates STUN from other protocols on a port), the type, the cookie, and a length that matches the datagram.
     * Attributes are not required: Tailscale's clients send SOFTWARE and FINGERPRINT, other STUN clients may not.
     */
    public static Optional<byte[]> bindingRequestTransaction(ByteBuffer datagram) {
        if (datagram.remaining() < HEADER_LENGTH) {
            return Optional.empty();
        }
        int start = datagram.position();
        short type = datagram.getShort(start);
        int length = datagram.getShort(start + 2) & 0xffff;
        if (type != BINDING_REQUEST || datagram.getInt(start + 4) != MAGIC_COOKIE
                || length != datagram.remaining() - HEADER_LENGTH || length % 4 != 0) {
            return Optional.empty();
        }
        byte[] transaction = new byte[TRANSACTION_ID_LENGTH];
        datagram.get(start + 8, transaction);
        return Optional.of(transaction);
    }

    /** A Binding Success Response telling the client the address its request came from. */
    public static byte[] bindingResponse(byte[] transaction, InetSocketAddress mapped) {
        InetAddress ip = mapped.getAddress();
        byte[] address = ip.getAddress();
        boolean v4 = address.length == 4;
        ByteBuffer out = ByteBuffer.allocate(HEADER_LENGTH + 4 + 4 + address.length);
        out.putShort(BINDING_SUCCESS).putShort((short) (4 + 4 + address.length)).putInt(MAGIC_COOKIE).put(transaction);
        out.putShort(XOR_MAPPED_ADDRESS).putShort((short) (4 + address.length));
        out.put((byte) 0).put((byte) (v4 ? 0x01 : 0x02));
        out.putShort((short) (mapped.getPort() ^ (MAGIC_COOKIE >>> 16)));
        // The address is XORed with the cookie, and for IPv6 also with the transaction id that follows it.
        byte[] mask = ByteBuffer.allocate(16).putInt(MAGIC_COOKIE).put(transaction).array();
        for (int i = 0; i < address.length; i++) {
            out.put((byte) (address[i] ^ mask[i]));
        }
        return out.array();
    }
}
