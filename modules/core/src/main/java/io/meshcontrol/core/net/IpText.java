package io.meshcontrol.core.net;

import java.util.Arrays;

/**
 * Parsing and formatting of IP addresses exactly as Go's {@code net/netip} does, without ever consulting DNS:
 * dotted-quad IPv4 without leading zeros, IPv6 with {@code ::} and an optional trailing dotted quad, an optional zone
 * ({@code %eth0}); output in RFC 5952 form (lower case, the longest run of two or more zero groups as {@code ::}), and
 * IPv4-mapped IPv6 as {@code ::ffff:1.2.3.4}.
 */
final class IpText {

    private IpText() {
    }

    /** An address and its zone ({@code ""} for none; IPv4 never has one). */
    record Parsed(byte[] bytes, String zone) {
    }

    /** @throws IllegalArgumentException naming what is wrong */
    static Parsed parseAddress(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("empty IP address");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.') {
                return new Parsed(parseIpv4(text, 0, text.length(), text), "");
            }
            if (c == ':') {
                return parseIpv6(text);
            }
            if (c == '%') {
                break;
            }
        }
        throw new IllegalArgumentException("not an IP address: \"" + text + "\"");
    }

    private static byte[] parseIpv4(String text, int from, int to, String whole) {
        byte[] out = new byte[4];
        int field = 0;
        int value = -1;
        int digits = 0;
        for (int i = from; i <= to; i++) {
            if (i == to || text.charAt(i) == '.') {
                if (digits == 0 || field > 3) {
                    throw bad("IPv4 address", whole);
                }
                out[field++] = (byte) value;
                value = -1;
                digits = 0;
                continue;
            }
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw bad("IPv4 address", whole);
            }
            if (digits > 0 && value == 0) {
                throw new IllegalArgumentException("IPv4 field has a leading zero: \"" + whole + "\"");
            }
            value = (value < 0 ? 0 : value * 10) + (c - '0');
            digits++;
            if (value > 255) {
                throw new IllegalArgumentException("IPv4 field above 255: \"" + whole + "\"");
            }
        }
        if (field != 4) {
            throw bad("IPv4 address", whole);
        }
        return out;
    }

    private static Parsed parseIpv6(String whole) {
        String zone = "";
        String text = whole;
        int percent = whole.indexOf('%');
        if (percent >= 0) {
            zone = whole.substring(percent + 1);
            text = whole.substring(0, percent);
            if (zone.isEmpty()) {
                throw new IllegalArgumentException("IPv6 zone is empty: \"" + whole + "\"");
            }
        }
        byte[] out = new byte[16];
        int group = 0;
        int ellipsis = -1;
        int i = 0;
        int n = text.length();
        if (text.startsWith("::")) {
            ellipsis = 0;
            i = 2;
            if (n == 2) {
                return new Parsed(out, zone);
            }
        }
        while (i < n) {
            int start = i;
            int value = 0;
            while (i < n && i - start < 5 && hexDigit(text.charAt(i)) >= 0) {
                value = value << 4 | hexDigit(text.charAt(i));
                i++;
            }
            int digits = i - start;
            if (digits == 0 || digits > 4) {
                throw bad("IPv6 address", whole);
            }
            if (i < n && text.charAt(i) == '.') {
                if (ellipsis < 0 && group != 12 || group + 4 > 16) {
                    throw bad("IPv6 address", whole);
                }
                byte[] v4 = parseIpv4(text, start, n, whole);
                System.arraycopy(v4, 0, out, group, 4);
                group += 4;
                i = n;
                break;
            }
            if (group + 2 > 16) {
                throw bad("IPv6 address", whole);
            }
            out[group++] = (byte) (value >> 8);
            out[group++] = (byte) value;
            if (i == n) {
                break;
            }
            if (text.charAt(i) != ':') {
                throw bad("IPv6 address", whole);
            }
            i++;
            if (i < n && text.charAt(i) == ':') {
                if (ellipsis >= 0) {
                    throw bad("IPv6 address (two ::)", whole);
                }
                ellipsis = group;
                i++;
                if (i == n) {
                    break;
                }
            } else if (i == n) {
                throw bad("IPv6 address", whole);
            }
        }
        if (ellipsis >= 0) {
            if (group == 16) {
                throw bad("IPv6 address (:: stands for nothing)", whole);
            }
            int tail = group - ellipsis;
            System.arraycopy(out, ellipsis, out, 16 - tail, tail);
            Arrays.fill(out, ellipsis, 16 - tail, (byte) 0);
        } else if (group != 16) {
            throw bad("IPv6 address (too short)", whole);
        }
        return new Parsed(out, zone);
    }

    /** The value of an ASCII hex digit, or -1 (unlike {@link Character#digit}, which takes any Unicode digit). */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    static String format(byte[] bytes, String zone) {
        StringBuilder out = new StringBuilder(bytes.length == 4 ? 15 : 39);
        if (bytes.length == 4) {
            appendIpv4(out, bytes, 0);
            return out.toString();
        }
        if (isIpv4Mapped(bytes)) {
            out.append("::ffff:");
            appendIpv4(out, bytes, 12);
        } else {
            appendIpv6(out, bytes);
        }
        if (!zone.isEmpty()) {
            out.append('%').append(zone);
        }
        return out.toString();
    }

    static boolean isIpv4Mapped(byte[] bytes) {
        if (bytes.length != 16 || bytes[10] != (byte) 0xff || bytes[11] != (byte) 0xff) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static void appendIpv4(StringBuilder out, byte[] bytes, int from) {
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                out.append('.');
            }
            out.append(bytes[from + i] & 0xff);
        }
    }

    private static void appendIpv6(StringBuilder out, byte[] bytes) {
        int bestStart = -1;
        int bestLength = 0;
        for (int g = 0; g < 8; ) {
            if (group(bytes, g) != 0) {
                g++;
                continue;
            }
            int start = g;
            while (g < 8 && group(bytes, g) == 0) {
                g++;
            }
            if (g - start >= 2 && g - start > bestLength) {
                bestStart = start;
                bestLength = g - start;
            }
        }
        for (int g = 0; g < 8; g++) {
            if (g == bestStart) {
                out.append("::");
                g += bestLength - 1;
                continue;
            }
            if (g > 0 && g != bestStart + bestLength) {
                out.append(':');
            }
            out.append(Integer.toHexString(group(bytes, g)));
        }
    }

    private static int group(byte[] bytes, int g) {
        return (bytes[2 * g] & 0xff) << 8 | bytes[2 * g + 1] & 0xff;
    }

    private static IllegalArgumentException bad(String what, String text) {
        return new IllegalArgumentException("not a valid " + what + ": \"" + text + "\"");
    }
}
