package io.meshcontrol.relay.derp;

/**
 * DERP frame types and the protocol's fixed sizes ({@code derp/derp.go}). Every frame is one type byte, a 4-byte
 * big-endian payload length, then the payload.
 */
public final class FrameType {

    /** S→C: magic + server public key; the first frame on every connection. */
    public static final byte SERVER_KEY = 0x01;
    /** C→S: client public key + nonce + NaCl box of the ClientInfo JSON. */
    public static final byte CLIENT_INFO = 0x02;
    /** S→C: nonce + NaCl box of the ServerInfo JSON; the end of the handshake. */
    public static final byte SERVER_INFO = 0x03;
    /** C→S: destination key + packet. */
    public static final byte SEND_PACKET = 0x04;
    /** S→C: source key + packet (protocol version 2). */
    public static final byte RECV_PACKET = 0x05;
    /** S→C: no payload; proves the connection is alive. */
    public static final byte KEEP_ALIVE = 0x06;
    /** C→S: one byte, 1 when this relay is the client's home. */
    public static final byte NOTE_PREFERRED = 0x07;
    /** S→C: key + reason; a peer the client talked to is gone. */
    public static final byte PEER_GONE = 0x08;
    /** S→C to mesh watchers: a peer connected. */
    public static final byte PEER_PRESENT = 0x09;
    /** mesh→S: source key + destination key + packet. */
    public static final byte FORWARD_PACKET = 0x0a;
    /** mesh→S: subscribe to presence. */
    public static final byte WATCH_CONNS = 0x10;
    /** mesh→S: close a client by key. */
    public static final byte CLOSE_PEER = 0x11;
    /** either way: 8 opaque bytes to be echoed in a pong. */
    public static final byte PING = 0x12;
    /** either way: the 8 bytes of the ping answered. */
    public static final byte PONG = 0x13;
    /** S→C: a problem text, empty when healthy. */
    public static final byte HEALTH = 0x14;
    /** S→C: the server is restarting. */
    public static final byte RESTARTING = 0x15;

    /** PeerGone reason: the peer disconnected from this relay. */
    public static final byte PEER_GONE_DISCONNECTED = 0x00;
    /** PeerGone reason: the server does not know the destination. */
    public static final byte PEER_GONE_NOT_HERE = 0x01;

    public static final int HEADER_LENGTH = 5;
    public static final int KEY_LENGTH = 32;
    public static final int PING_LENGTH = 8;
    /** The largest packet a client may relay, not counting the destination key. */
    public static final int MAX_PACKET_SIZE = 64 << 10;
    /** ClientInfo is capped separately; it carries JSON and Go's server allows up to 256 KiB. */
    public static final int MAX_CLIENT_INFO_LENGTH = 256 << 10;
    /** The largest frame the server accepts once connected: a packet with two keys (ForwardPacket) and headroom. */
    public static final int MAX_FRAME_LENGTH = MAX_PACKET_SIZE + 2 * KEY_LENGTH;
    /** Protocol version 2: RecvPacket carries the source key. */
    public static final int PROTOCOL_VERSION = 2;

    /** The 8-byte magic in the ServerKey frame: "DERP" then the key emoji in UTF-8. */
    static byte[] magic() {
        return new byte[] {0x44, 0x45, 0x52, 0x50, (byte) 0xf0, (byte) 0x9f, (byte) 0x94, (byte) 0x91};
    }

    private FrameType() {
    }
}
