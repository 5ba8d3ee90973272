package io.meshcontrol.notify;

import io.meshcontrol.core.address.EgressGuard;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The egress guard applied to a delivery URL: the host is resolved once and every address it gives must pass the
 * {@link EgressGuard}; the caller then connects to one of exactly those addresses, so an answer that changes between
 * the check and the connection (DNS rebinding) never reaches a refused address. Webhooks and log streams use it.
 */
public final class Egress {

    /** Why the URL may not be used, or the addresses it may be reached at. */
    public sealed interface Checked {
    }

    public record Allowed(URI uri, List<InetAddress> addresses) implements Checked {
    }

    /** @param lookupFailed true when the name did not resolve (which may pass: it is retried) */
    public record Refused(String reason, boolean lookupFailed) implements Checked {
    }

    private final EgressGuard guard;
    private final AddressLookup lookup;

    public Egress(EgressGuard guard, AddressLookup lookup) {
        this.guard = guard;
        this.lookup = lookup;
    }

    public Checked check(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            return new Refused("it is not a URL", false);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return new Refused("only http and https URLs are delivered to", false);
        }
        String host = uri.getHost();
        // java.net.URI finds no host in some numeric forms (0x7f.0.0.1): the authority says what was written
        Optional<String> form = EgressGuard.hostRefusal(host != null ? host : writtenHost(uri));
        if (form.isPresent()) {
            return new Refused(form.get(), false);
        }
        if (host == null || host.isEmpty()) {
            return new Refused("it has no host", false);
        }
        InetAddress[] addresses;
        try {
            addresses = lookup.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            return new Refused("its host " + host + " does not resolve", true);
        }
        if (addresses.length == 0) {
            return new Refused("its host " + host + " does not resolve", true);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = guard.refusal(address);
            if (refusal.isPresent()) {
                return new Refused("it points at " + refusal.get(), false);
            }
        }
        return new Allowed(uri, List.of(addresses));
    }

    /** The authority without user information and port. */
    private static String writtenHost(URI uri) {
        String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        int colon = host.lastIndexOf(':');
        return colon < 0 || host.endsWith("]") ? host : host.substring(0, colon);
    }
}
