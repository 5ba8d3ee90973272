package io.meshcontrol.server.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPOutputStream;

/**
 * Gzip for API answers and console files, when the client accepts it and the body is big enough to gain: a list of
 * a thousand machines shrinks to about a tenth. Small answers go as they are (the header would cost more than it saves).
 */
final class Compression {

    /** Bodies below this go uncompressed. */
    static final int SMALLEST = 1024;

    private Compression() {
    }

    /** {@code body}, gzipped with the headers that say so when the request accepts gzip and it is large enough. */
    static ByteBuffer body(HttpServerExchange exchange, byte[] body) {
        exchange.getResponseHeaders().add(Headers.VARY, Headers.ACCEPT_ENCODING_STRING);
        if (body.length < SMALLEST || !acceptsGzip(exchange.getRequestHeaders().get(Headers.ACCEPT_ENCODING))) {
            return ByteBuffer.wrap(body);
        }
        ByteArrayOutputStream packed = new ByteArrayOutputStream(body.length / 4);
        try (GZIPOutputStream gzip = new GZIPOutputStream(packed)) {
            gzip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // memory streams do not fail
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_ENCODING, "gzip");
        return ByteBuffer.wrap(packed.toByteArray());
    }

    /** Whether any {@code Accept-Encoding} value lists gzip without refusing it ({@code gzip;q=0}). */
    static boolean acceptsGzip(Iterable<String> values) {
        if (values == null) {
            return false;
        }
        for (String value : values) {
            for (String part : value.split(",")) {
                String[] coding = part.trim().split(";");
                if (coding[0].trim().equalsIgnoreCase("gzip")) {
                    return coding.length < 2 || !coding[1].trim().replace(" ", "").matches("q=0(\\.0*)?");
                }
            }
        }
        return false;
    }
}
