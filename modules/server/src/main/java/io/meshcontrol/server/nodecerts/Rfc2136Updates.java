package io.meshcontrol.server.nodecerts;

import io.meshcontrol.core.config.HostPort;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;

/**
 * Records published by RFC 2136 dynamic updates to the zone's primary server (BIND, Knot, PowerDNS, ...), each
 * update signed with TSIG and sent over TCP, one connection per update. The server's answer must succeed and be
 * signed with the same key. Records get a TTL of {@value #TTL_SECONDS} seconds, so resolvers forget them soon after
 * they are removed.
 */
public final class Rfc2136Updates implements DnsProvider {

    static final int TTL_SECONDS = 60;
    private static final int MAX_ANSWER = 65535;

    /**
     * @param server the primary's address
     * @param zone the zone updated (every record name is inside it)
     * @param timeout for connecting and for the answer
     */
    public record Settings(HostPort server, String zone, DnsUpdateMessage.TsigKey key, Duration timeout) {
    }

    private final Settings settings;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public Rfc2136Updates(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void publish(TxtRecord record) throws IOException {
        send(DnsUpdateMessage.add(random.nextInt(1 << 16), settings.zone(), record, TTL_SECONDS, settings.key(),
                clock.instant().getEpochSecond()));
    }

    @Override
    public void remove(TxtRecord record) throws IOException {
        send(DnsUpdateMessage.delete(random.nextInt(1 << 16), settings.zone(), record, settings.key(),
                clock.instant().getEpochSecond()));
    }

    private void send(DnsUpdateMessage update) throws IOException {
        int timeout = Math.toIntExact(settings.timeout().toMillis());
        InetSocketAddress address = new InetSocketAddress(settings.server().host(), settings.server().port());
        try (Socket socket = new Socket()) {
            socket.connect(address, timeout);
            socket.setSoTimeout(timeout);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeShort(update.bytes().length);
            out.write(update.bytes());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int length = in.readUnsignedShort();
            if (length > MAX_ANSWER) {
                throw new DnsUpdateException("the DNS server's answer is too long");
            }
            update.checkAnswer(in.readNBytes(length), settings.key());
        } catch (DnsUpdateException e) {
            throw new DnsUpdateException(settings.server().host() + ":" + settings.server().port() + ": "
                    + e.getMessage());
        } catch (IOException e) {
            throw new IOException("the DNS server " + settings.server().host() + ":" + settings.server().port()
                    + " could not be reached: " + e.getMessage(), e);
        }
    }
}
