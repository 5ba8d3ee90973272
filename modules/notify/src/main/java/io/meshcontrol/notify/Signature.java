package io.meshcontrol.notify;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature on every webhook request: {@code Mesh-Webhook-Signature: t=<unix seconds>,v1=<hex>}, where v1 is
 * the HMAC-SHA256, keyed with the endpoint's whole secret text, of {@code "<t>.<raw body>"}.
 */
public final class Signature {

    public static final String HEADER = "Mesh-Webhook-Signature";

    private Signature() {
    }

    /** The header's value for {@code body} sent at {@code unixSeconds}. */
    public static String header(String secret, long unixSeconds, byte[] body) {
        return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(hmac(secret, unixSeconds, body));
    }

    private static byte[] hmac(String secret, long unixSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((unixSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
