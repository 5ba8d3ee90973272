package io.meshcontrol.core;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * The sizes of what the network stores: far above anything a person or a script means to send, so that no honest
 * request meets them, yet small enough that one request cannot fill the database or slow every map. Checked in
 * {@code core.state} (and the model's validation) so that every caller, v1, v2 and the CLI, meets the same limit; a
 * refusal names the field and the limit. docs/limits.md lists them.
 */
public final class Limits {

    /** A user's login name, a node's name (a DNS label). */
    public static final int NAME = 63;
    /** A user's display name. */
    public static final int DISPLAY_NAME = 255;
    /** A relay's region code. */
    public static final int REGION_CODE = 63;
    /** An e-mail address (the longest a mail path allows, RFC 5321). */
    public static final int EMAIL = 254;
    /** The description of an API key, a pre-auth key. */
    public static final int DESCRIPTION = 1_000;
    /** One tag, {@code tag:} included. */
    public static final int TAG = 255;
    /** Tags on one node or one pre-auth key. */
    public static final int TAGS = 256;
    /** Approved routes of one node. */
    public static final int ROUTES = 1_000;
    /** Scopes requested for one key. */
    public static final int SCOPES = 100;
    /** A policy, in bytes of UTF-8. */
    public static final int POLICY_BYTES = 1024 * 1024;
    /** DERP map URLs in the DERP settings. */
    public static final int DERP_URLS = 100;
    /** One URL. */
    public static final int URL = 2_048;
    /** Relays of your own in the DERP settings. */
    public static final int DERP_RELAYS = 1_000;
    /** A host name (the longest DNS name). */
    public static final int HOST = 253;
    /** A {@code host:port} address. */
    public static final int ADDRESS = 300;

    private Limits() {
    }

    /**
     * @param field the field as the API names it ({@code displayName}, {@code relays[2].code})
     * @return {@code value}, which may be null
     * @throws MeshException (invalid) when {@code value} has more than {@code max} characters
     */
    public static String text(String field, String value, int max) {
        if (value != null && value.length() > max && value.codePointCount(0, value.length()) > max) {
            throw MeshException.invalid(field + " is too long: at most " + format(max) + " characters, got "
                    + format(value.codePointCount(0, value.length())));
        }
        return value;
    }

    /** {@code value} cut to at most {@code max} characters: for text from elsewhere that nobody here can shorten. */
    public static String cut(String value, int max) {
        int length = value.codePointCount(0, value.length());
        return length <= max ? value : value.substring(0, value.offsetByCodePoints(0, max));
    }

    /** As {@link #text}, counting bytes of UTF-8: for documents (a policy). */
    public static String bytes(String field, String value, int max) {
        if (value != null && value.length() > max / 3) {
            int size = value.getBytes(StandardCharsets.UTF_8).length;
            if (size > max) {
                throw MeshException.invalid(field + " is too large: at most " + format(max) + " bytes, got "
                        + format(size));
            }
        }
        return value;
    }

    /** @throws MeshException (invalid) when {@code values} has more than {@code max} entries; null passes */
    public static <C extends Collection<?>> C count(String field, C values, int max) {
        if (values != null && values.size() > max) {
            throw MeshException.invalid(field + " has too many entries: at most " + format(max) + ", got "
                    + format(values.size()));
        }
        return values;
    }

    private static String format(int number) {
        return String.format(java.util.Locale.ROOT, "%,d", number);
    }
}
