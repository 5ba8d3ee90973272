package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.DnsSettingsStore;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The network's DNS: the configuration's {@code dns.*} until it is saved through the API, the saved settings from then
 * on. MagicDNS stays what the configuration file says: a change of it is refused, repeating it is not. Every change is
 * a function of the settings in force, run under the writer ({@link #update}): the API's resources each change one part
 * (nameservers, search paths, split DNS), and parallel changes of different parts all stay. A saved change reaches the
 * map context ({@link MapContextState}) as it commits, which publishes it on the change feed.
 */
public final class Dns {

    public static final String WRITE_SCOPE = "dns";
    public static final String READ_SCOPE = "dns:read";

    private final Writer writer;
    private final DnsSettingsStore store;
    private final AuditStore audit;
    private final DnsSettings configured;
    private final boolean magicDns;
    private final InForce<DnsSettings> current;

    Dns(Jdbi jdbi, Writer writer, DnsSettingsStore store, AuditStore audit, DnsSettings configured) {
        this.writer = writer;
        this.store = store;
        this.audit = audit;
        this.configured = configured;
        this.magicDns = configured.magicDns();
        this.current = new InForce<>(jdbi.withHandle(h -> store.read(h, magicDns)).orElse(configured), writer,
                ChangeLog.Kind.DNS);
    }

    /** The DNS in force, for building maps. */
    public DnsSettings current() {
        return current.get();
    }

    public DnsSettings get(Caller caller) {
        caller.require(READ_SCOPE);
        return current.get();
    }

    /** Puts the saved settings in force again, read through {@code handle}: another instance changed them. */
    void follow(Handle handle) {
        current.follow(store.read(handle, magicDns).orElse(configured));
    }

    /** Set once by {@link Network}: called with the new settings after each saved change. */
    void onChange(Consumer<DnsSettings> listener) {
        current.onChange(listener);
    }

    /**
     * Changes the DNS: {@code change} is given the settings in force, with every change acknowledged before it, and
     * answers the new ones, which are saved with a {@code dns.update} entry. A change that throws saves nothing.
     *
     * @throws MeshException (invalid) when the new {@code magicDns} differs from the configuration file's
     */
    public DnsSettings update(Caller caller, UnaryOperator<DnsSettings> change) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            DnsSettings settings = change.apply(store.read(h, magicDns).orElse(configured));
            if (settings.magicDns() != magicDns) {
                throw MeshException.invalid("magicDNS is set in the configuration file (dns.magic_dns: " + magicDns
                        + ") and cannot be changed through the API");
            }
            store.write(h, settings, now, caller.actor());
            audit.append(h, caller.audited(now, "dns.update", "dns", Map.of(
                    "nameservers", String.valueOf(settings.nameservers().size()),
                    "splitDnsDomains", String.join(" ", settings.splitDns().keySet()),
                    "searchPaths", String.join(" ", settings.searchPaths()))));
            current.putOnCommit(h, settings);
            return settings;
        });
    }
}
