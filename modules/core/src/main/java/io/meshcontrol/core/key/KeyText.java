package io.meshcontrol.core.key;

import java.util.HexFormat;

/**
 * The text form shared by all key types: a type prefix such as {@code mkey:} followed by the 32 key bytes as 64 hex
 * digits. Keys are written in lower case; upper-case digits are accepted on input, as the Tailscale client does.
 */
final class KeyText {

    private static final HexFormat HEX = HexFormat.of();
    /** Longest text before a colon that we are willing to quote back as "the prefix found"; never key material. */
    private static final int LONGEST_QUOTABLE_PREFIX = 16;

    private KeyText() {
    }

    static String format(String prefix, byte[] raw) {
        return prefix + HEX.formatHex(raw);
    }

    static byte[] parse(String text, String prefix) {
        if (!text.startsWith(prefix)) {
            throw new KeyFormatException(KeyFormatException.Problem.WRONG_PREFIX,
                    "key text must start with '" + prefix + "'" + foundPrefix(text));
        }
        int digits = text.length() - prefix.length();
        int wanted = Curve25519Key.LENGTH * 2;
        if (digits != wanted) {
            throw new KeyFormatException(KeyFormatException.Problem.WRONG_LENGTH,
                    "'" + prefix + "' key must have " + wanted + " hex digits after the prefix, found " + digits);
        }
        byte[] raw = new byte[Curve25519Key.LENGTH];
        for (int i = 0; i < raw.length; i++) {
            int high = digit(text, prefix.length() + 2 * i, prefix);
            int low = digit(text, prefix.length() + 2 * i + 1, prefix);
            raw[i] = (byte) (high << 4 | low);
        }
        return raw;
    }

    private static int digit(String text, int index, String prefix) {
        char c = text.charAt(index);
        if (!HexFormat.isHexDigit(c)) {
            throw new KeyFormatException(KeyFormatException.Problem.INVALID_HEX,
                    "'" + prefix + "' key has a character that is not a hex digit at position "
                            + (index - prefix.length()) + " after the prefix");
        }
        return HexFormat.fromHexDigit(c);
    }

    /** Quotes another key type's prefix (letters only, ending in a colon) to make the mistake obvious. */
    private static String foundPrefix(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || colon > LONGEST_QUOTABLE_PREFIX) {
            return "";
        }
        for (int i = 0; i < colon; i++) {
            char c = text.charAt(i);
            if (c < 'a' || c > 'z') {
                return "";
            }
        }
        return ", found '" + text.substring(0, colon + 1) + "'";
    }
}
