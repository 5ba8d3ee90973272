package io.meshcontrol.interop;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The DNS server an app connector resolves its app's domain with: one name answers one IPv4 address (type A, class
 * IN), every other question an empty answer. UDP and TCP on one address, as the client's forwarder uses both.
 */
final class AppDomainResolver implements AutoCloseable {

    private final String name;
    private final Inet4Address address;
    private final DatagramSocket udp;
    private final ServerSocket tcp;

    private AppDomainResolver(String name, Inet4Address address, InetSocketAddress at) throws IOException {
        this.name = name.toLowerCase(Locale.ROOT);
        this.address = address;
        this.udp = new DatagramSocket(at);
        this.tcp = new ServerSocket();
        tcp.bind(at);
        Thread.ofVirtual().name("dns-udp").start(this::serveUdp);
        Thread.ofVirtual().name("dns-tcp").start(this::serveTcp);
    }

    /** Answers {@code name} with {@code address} on {@code at} (UDP and TCP). */
    static AppDomainResolver start(InetSocketAddress at, String name, Inet4Address address) throws IOException {
        return new AppDomainResolver(name, address, at);
    }

    private void serveUdp() {
        byte[] buffer = new byte[512];
        while (!udp.isClosed()) {
            try {
                DatagramPacket query = new DatagramPacket(buffer, buffer.length);
                udp.receive(query);
                byte[] answer = answer(ByteBuffer.wrap(query.getData(), 0, query.getLength()));
                udp.send(new DatagramPacket(answer, answer.length, query.getSocketAddress()));
            } catch (IOException | RuntimeException e) {
                // closed, or a malformed query: the client retries or gives up
            }
        }
    }

    private void serveTcp() {
        while (!tcp.isClosed()) {
            try {
                Socket connection = tcp.accept();
                Thread.ofVirtual().start(() -> serveConnection(connection));
            } catch (IOException e) {
                // closed
            }
        }
    }

    private void serveConnection(Socket connection) {
        try (connection; DataInputStream in = new DataInputStream(connection.getInputStream());
                DataOutputStream out = new DataOutputStream(connection.getOutputStream())) {
            while (true) {
                byte[] query = new byte[in.readUnsignedShort()];
                in.readFully(query);
                byte[] answer = answer(ByteBuffer.wrap(query));
                out.writeShort(answer.length);
                out.write(answer);
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            // the client closed the connection, or sent garbage
        }
    }

    /** The answer to one query: its id and question repeated, with an A record when it asks for our name. */
    private byte[] answer(ByteBuffer query) {
        int id = query.getShort(0) & 0xffff;
        int questionStart = 12;
        StringBuilder asked = new StringBuilder();
        int at = questionStart;
        for (int length = query.get(at) & 0xff; length != 0; length = query.get(at) & 0xff) {
            for (int i = 1; i <= length; i++) {
                asked.append((char) query.get(at + i));
            }
            asked.append('.');
            at += length + 1;
        }
        int type = query.getShort(at + 1) & 0xffff;
        int questionEnd = at + 5;
        boolean match = type == 1 && asked.toString().toLowerCase(Locale.ROOT).equals(name + ".");
        ByteBuffer out = ByteBuffer.allocate(questionEnd + (match ? 16 : 0));
        out.putShort((short) id).putShort((short) 0x8180).putShort((short) 1).putShort((short) (match ? 1 : 0))
                .putShort((short) 0).putShort((short) 0);
        for (int i = questionStart; i < questionEnd; i++) {
            out.put(query.get(i));
        }
        if (match) {
            out.putShort((short) 0xc00c).putShort((short) 1).putShort((short) 1).putInt(60).putShort((short) 4)
                    .put(address.getAddress());
        }
        return out.array();
    }

    @Override
    public void close() throws IOException {
        udp.close();
        tcp.close();
    }
}
