package io.meshcontrol.server.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code Accept-Encoding} values let an answer go gzipped (RFC 9110, section 12.5.3). */
class CompressionTest {

    @Test
    void gzipIsSentWhenListedAndNotRefusedByAZeroWeight() {
        assertTrue(Compression.acceptsGzip(List.of("gzip")));
        assertTrue(Compression.acceptsGzip(List.of("deflate, GZIP;q=0.5")));
        assertTrue(Compression.acceptsGzip(List.of("br", "gzip, deflate")));
        assertFalse(Compression.acceptsGzip(List.of("gzip;q=0")));
        assertFalse(Compression.acceptsGzip(List.of("gzip; q=0.000")));
        assertFalse(Compression.acceptsGzip(List.of("br, identity")));
        assertFalse(Compression.acceptsGzip(null));
    }
}
