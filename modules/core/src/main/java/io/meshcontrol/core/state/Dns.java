package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.DnsSettingsStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;

/**
 * The network's DNS: the configuration's {@code dns.*} until it is saved through the API, the saved settings from then
 * on. MagicDNS stays what the configuration file says: a change of it is refused, repeating it is not. A saved change
 * reaches the map context through the one listener the composition root sets, which puts the new DNS in place and
 * tells the change feed.
 */
public final class Dns {

    public static final String WRITE_SCOPE = "dns";
    public static final String READ_SCOPE = "dns:read";

    private final Jdbi jdbi;
    private final DnsSettingsStore store;
    private final AuditStore audit;
    private final Clock clock;
    private final boolean magicDns;
    private volatile DnsSettings current;
    private volatile Consumer<DnsSettings> onChange = settings -> { };

    Dns(Jdbi jdbi, DnsSettingsStore store, AuditStore audit, Clock clock, DnsSettings configured) {
        this.jdbi = jdbi;
        this.store = store;
        this.audit = audit;
        this.clock = clock;
        this.magicDns = configured.magicDns();
        this.current = jdbi.withHandle(h -> store.read(h, magicDns)).orElse(configured);
    }

    /** The DNS in force, for building maps. */
    public DnsSettings current() {
        return current;
    }

    public DnsSettings get(Caller caller) {
        caller.require(READ_SCOPE);
        return current;
    }

    /** Set once by the composition root: called with the new settings after each saved change. */
    public void onChange(Consumer<DnsSettings> listener) {
        this.onChange = listener;
    }

    /**
     * Saves the whole DNS configuration.
     *
     * @throws MeshException (invalid) when {@code magicDns} differs from the configuration file's
     */
    public synchronized DnsSettings save(Caller caller, DnsSettings settings) {
        caller.require(WRITE_SCOPE);
        if (settings.magicDns() != magicDns) {
            throw MeshException.invalid("magicDNS is set in the configuration file (dns.magic_dns: " + magicDns
                    + ") and cannot be changed through the API");
        }
        Instant now = clock.instant();
        jdbi.useTransaction(h -> {
            store.write(h, settings, now, caller.actor());
            audit.append(h, caller.audited(now, "dns.update", "dns", Map.of(
                    "nameservers", String.valueOf(settings.nameservers().size()),
                    "splitDnsDomains", String.join(" ", settings.splitDns().keySet()),
                    "searchPaths", String.join(" ", settings.searchPaths()))));
        });
        current = settings;
        onChange.accept(settings);
        return settings;
    }
}
