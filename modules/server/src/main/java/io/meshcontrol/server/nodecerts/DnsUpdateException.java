package io.meshcontrol.server.nodecerts;

import java.io.IOException;

/** A DNS update the server refused, or whose answer cannot be trusted. */
public final class DnsUpdateException extends IOException {

    public DnsUpdateException(String message) {
        super(message);
    }
}
