package io.meshcontrol.server.nodecerts;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * RFC 2136 UPDATE messages that add or delete one TXT record, signed with TSIG (RFC 8945), and the check of the
 * server's answer. Pure: no I/O, so it is tested byte by byte.
 *
 * <pre>
 * header       ID, flags 0x2800 (opcode UPDATE), ZOCOUNT 1, PRCOUNT 0, UPCOUNT 1, ADCOUNT 1
 * zone         zone name, type SOA, class IN
 * update       add:    name, TXT, IN,   TTL, RDATA = length byte + text
 *              delete: name, TXT, NONE, 0,   RDATA = length byte + text   (that record only, RFC 2136 2.5.4)
 * additional   TSIG: key name, type 250, class ANY, TTL 0, RDATA = algorithm name, time signed (48 bits),
 *              fudge 300, MAC size + MAC, original ID, error 0, other length 0
 * </pre>
 *
 * The MAC is the HMAC of the message without its TSIG record followed by the TSIG variables (key name, class,
 * TTL, algorithm name, time, fudge, error, other data). Names are written whole (no compression), lowercase.
 *
 * @param bytes the message as sent (without TCP's length prefix)
 * @param id its ID, which the answer must carry
 * @param mac its TSIG MAC, which the answer's MAC covers
 */
public record DnsUpdateMessage(byte[] bytes, int id, byte[] mac) {

    static final int TYPE_SOA = 6;
    static final int TYPE_TXT = 16;
    static final int TYPE_TSIG = 250;
    static final int CLASS_IN = 1;
    static final int CLASS_NONE = 254;
    static final int CLASS_ANY = 255;
    static final int FUDGE_SECONDS = 300;
    private static final int OPCODE_UPDATE = 5 << 11;
    private static final int QR = 0x8000;

    /** A TSIG key: its name and algorithm as the DNS server knows them, and the shared secret. */
    public record TsigKey(String name, String algorithm, byte[] secret) {

        /** {@code algorithm} is a TSIG algorithm name: {@code hmac-sha256} or {@code hmac-sha512}. */
        public TsigKey {
            name = canonical(name);
            algorithm = canonical(algorithm);
            macAlgorithm(algorithm); // refuse an unknown one now rather than at the first update
        }

        Mac mac() {
            try {
                Mac mac = Mac.getInstance(macAlgorithm(algorithm));
                mac.init(new SecretKeySpec(secret, mac.getAlgorithm()));
                return mac;
            } catch (NoSuchAlgorithmException | InvalidKeyException e) {
                throw new IllegalStateException("cannot sign with " + algorithm + ": " + e.getMessage(), e);
            }
        }

        private static String macAlgorithm(String tsigName) {
            return switch (tsigName) {
                case "hmac-sha256" -> "HmacSHA256";
                case "hmac-sha512" -> "HmacSHA512";
                default -> throw new IllegalArgumentException("unsupported TSIG algorithm " + tsigName);
            };
        }
    }

    /** The update adding {@code record} with {@code ttlSeconds} to {@code zone}, signed at {@code epochSeconds}. */
    public static DnsUpdateMessage add(int id, String zone, TxtRecord record, int ttlSeconds, TsigKey key,
            long epochSeconds) {
        return build(id, zone, record, CLASS_IN, ttlSeconds, key, epochSeconds);
    }

    /** The update deleting exactly {@code record} from {@code zone}. */
    public static DnsUpdateMessage delete(int id, String zone, TxtRecord record, TsigKey key, long epochSeconds) {
        return build(id, zone, record, CLASS_NONE, 0, key, epochSeconds);
    }

    private static DnsUpdateMessage build(int id, String zone, TxtRecord record, int recordClass, int ttl, TsigKey key,
            long epochSeconds) {
        byte[] text = record.value().getBytes(StandardCharsets.US_ASCII);
        if (text.length > 255) {
            throw new IllegalArgumentException("a TXT string holds at most 255 bytes");
        }
        Writer message = new Writer();
        message.u16(id).u16(OPCODE_UPDATE).u16(1).u16(0).u16(1).u16(0);
        message.name(zone).u16(TYPE_SOA).u16(CLASS_IN);
        message.name(record.name()).u16(TYPE_TXT).u16(recordClass).u32(ttl).u16(text.length + 1).u8(text.length)
                .bytes(text);
        byte[] unsigned = message.toByteArray();
        Mac hmac = key.mac();
        hmac.update(unsigned);
        hmac.update(variables(key, epochSeconds, FUDGE_SECONDS, 0, new byte[0]));
        byte[] mac = hmac.doFinal();
        Writer rdata = new Writer().name(key.algorithm()).u48(epochSeconds).u16(FUDGE_SECONDS).u16(mac.length)
                .bytes(mac).u16(id).u16(0).u16(0);
        byte[] tsigData = rdata.toByteArray();
        message.name(key.name()).u16(TYPE_TSIG).u16(CLASS_ANY).u32(0).u16(tsigData.length).bytes(tsigData);
        byte[] bytes = message.toByteArray();
        bytes[11] = 1; // ADCOUNT: the TSIG record (the MAC covered the message with ADCOUNT 0)
        return new DnsUpdateMessage(bytes, id, mac);
    }

    /** The TSIG variables the MAC covers after the message (RFC 8945, section 4.3.3). */
    private static byte[] variables(TsigKey key, long epochSeconds, int fudge, int error, byte[] other) {
        return new Writer().name(key.name()).u16(CLASS_ANY).u32(0).name(key.algorithm()).u48(epochSeconds)
                .u16(fudge).u16(error).u16(other.length).bytes(other).toByteArray();
    }

    /**
     * Checks the server's answer to this update: its ID, success (RCODE 0) and its TSIG signature by {@code key}
     * over this request's MAC.
     *
     * @throws DnsUpdateException saying what the server answered, or that the answer is not signed by the key
     */
    public void checkAnswer(byte[] answer, TsigKey key) throws DnsUpdateException {
        Reader in = new Reader(answer);
        int answerId = in.u16();
        int flags = in.u16();
        if (answerId != id || (flags & QR) == 0) {
            throw new DnsUpdateException("the DNS server's answer is not for this update (ID " + answerId + ")");
        }
        int zoneCount = in.u16();
        int records = in.u16() + in.u16();
        int additional = in.u16();
        for (int i = 0; i < zoneCount; i++) {
            in.skipName();
            in.skip(4);
        }
        for (int i = 0; i < records + additional - 1; i++) {
            in.skipRecord();
        }
        Tsig tsig = additional > 0 ? Tsig.read(in, answer) : null;
        int rcode = flags & 0xF;
        if (rcode != 0) {
            throw new DnsUpdateException("the DNS server refused the update: " + rcodeName(rcode)
                    + (tsig != null && tsig.error() != 0 ? " (TSIG " + rcodeName(tsig.error()) + ")" : ""));
        }
        if (tsig == null || tsig.mac().length == 0) {
            throw new DnsUpdateException("the DNS server's answer is not signed with the TSIG key");
        }
        byte[] unsigned = java.util.Arrays.copyOf(answer, tsig.start());
        unsigned[0] = (byte) (tsig.originalId() >> 8);
        unsigned[1] = (byte) tsig.originalId();
        int count = additional - 1;
        unsigned[10] = (byte) (count >> 8);
        unsigned[11] = (byte) count;
        Mac hmac = key.mac();
        hmac.update(new Writer().u16(mac.length).bytes(mac).toByteArray());
        hmac.update(unsigned);
        hmac.update(variables(key, tsig.timeSigned(), tsig.fudge(), tsig.error(), tsig.other()));
        if (!MessageDigest.isEqual(hmac.doFinal(), tsig.mac())) {
            throw new DnsUpdateException("the DNS server's answer has a wrong TSIG signature");
        }
    }

    /** The TSIG record of an answer, and where it starts. */
    private record Tsig(int start, long timeSigned, int fudge, byte[] mac, int originalId, int error, byte[] other) {

        static Tsig read(Reader in, byte[] answer) throws DnsUpdateException {
            int start = in.position();
            in.skipName();
            int type = in.u16();
            in.skip(6);
            int length = in.u16();
            if (type != TYPE_TSIG) {
                in.skip(length);
                return null;
            }
            in.skipName();
            long time = in.u48();
            int fudge = in.u16();
            byte[] mac = in.bytes(in.u16());
            int originalId = in.u16();
            int error = in.u16();
            byte[] other = in.bytes(in.u16());
            return new Tsig(start, time, fudge, mac, originalId, error, other);
        }
    }

    static String rcodeName(int rcode) {
        return switch (rcode) {
            case 1 -> "FORMERR";
            case 2 -> "SERVFAIL";
            case 3 -> "NXDOMAIN";
            case 4 -> "NOTIMP";
            case 5 -> "REFUSED (is the key allowed to update this zone?)";
            case 9 -> "NOTAUTH (the server is not authoritative for the zone, or does not know the key)";
            case 10 -> "NOTZONE (the name is outside the zone)";
            case 16 -> "BADSIG";
            case 17 -> "BADKEY";
            case 18 -> "BADTIME (are the clocks apart?)";
            default -> "RCODE " + rcode;
        };
    }

    private static String canonical(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    /** Big-endian writer of message parts. */
    private static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Writer u8(int value) {
            out.write(value);
            return this;
        }

        Writer u16(int value) {
            return u8(value >> 8).u8(value & 0xFF);
        }

        Writer u32(long value) {
            return u16((int) (value >> 16) & 0xFFFF).u16((int) value & 0xFFFF);
        }

        Writer u48(long value) {
            return u16((int) (value >> 32) & 0xFFFF).u32(value & 0xFFFFFFFFL);
        }

        Writer bytes(byte[] value) {
            out.writeBytes(value);
            return this;
        }

        /** A name as labels, lowercase, ending in the root label. */
        Writer name(String name) {
            String canonical = canonical(name);
            if (!canonical.isEmpty()) {
                for (String label : canonical.split("\\.", -1)) {
                    byte[] bytes = label.getBytes(StandardCharsets.US_ASCII);
                    if (bytes.length == 0 || bytes.length > 63) {
                        throw new IllegalArgumentException("not a DNS name: " + name);
                    }
                    u8(bytes.length).bytes(bytes);
                }
            }
            return u8(0);
        }

        byte[] toByteArray() {
            return out.toByteArray();
        }
    }

    /** Big-endian reader that refuses to run past the end. */
    private static final class Reader {
        private final byte[] data;
        private int position;

        Reader(byte[] data) {
            this.data = data;
        }

        int position() {
            return position;
        }

        private void need(int count) throws DnsUpdateException {
            if (count < 0 || position + count > data.length) {
                throw new DnsUpdateException("the DNS server's answer is cut short");
            }
        }

        int u8() throws DnsUpdateException {
            need(1);
            return data[position++] & 0xFF;
        }

        int u16() throws DnsUpdateException {
            return (u8() << 8) | u8();
        }

        long u48() throws DnsUpdateException {
            return ((long) u16() << 32) | ((long) u16() << 16) | u16();
        }

        byte[] bytes(int count) throws DnsUpdateException {
            need(count);
            byte[] value = java.util.Arrays.copyOfRange(data, position, position + count);
            position += count;
            return value;
        }

        void skip(int count) throws DnsUpdateException {
            need(count);
            position += count;
        }

        /** Skips a name: labels up to the root label, or up to a compression pointer. */
        void skipName() throws DnsUpdateException {
            while (true) {
                int length = u8();
                if (length == 0) {
                    return;
                }
                if ((length & 0xC0) == 0xC0) {
                    skip(1);
                    return;
                }
                skip(length);
            }
        }

        void skipRecord() throws DnsUpdateException {
            skipName();
            skip(8);
            skip(u16());
        }
    }
}
