package io.meshcontrol.core;

import java.security.SecureRandom;

/** Unpredictable identifiers and secrets from a cryptographic random source. */
public final class RandomText {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

    private RandomText() {
    }

    public static String alphanumeric(int length) {
        return pick(ALPHANUMERIC, length);
    }

    public static String lowerAlphanumeric(int length) {
        return pick(LOWER_ALPHANUMERIC, length);
    }

    private static String pick(String alphabet, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
