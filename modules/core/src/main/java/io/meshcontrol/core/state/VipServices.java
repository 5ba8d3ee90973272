package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.VipServiceStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Services (the vendor's VIP services): defined, read and removed by name. A new service takes an address pair from
 * the node pool (nodes and services never share one) and keeps it; what a caller sends as {@code addrs} must be
 * those addresses or nothing.
 */
public final class VipServices {

    public static final String WRITE_SCOPE = "services";
    public static final String READ_SCOPE = "services:read";
    private static final String PREFIX = "svc:";
    private static final Pattern PORT = Pattern.compile("(tcp|udp):([0-9]{1,5})(-([0-9]{1,5}))?");

    private final Jdbi jdbi;
    private final Writer writer;
    private final VipServiceStore store;
    private final AddressPool pool;
    private final InForce<List<VipService>> current;
    private final AuditStore audit = new AuditStore();

    VipServices(Jdbi jdbi, Writer writer, VipServiceStore store, AddressPool pool) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.pool = pool;
        this.current = new InForce<>(jdbi.withHandle(store::all), writer, ChangeLog.Kind.SERVICES);
    }

    /** Every service, for building maps (hosts serve them). */
    public List<VipService> current() {
        return current.get();
    }

    /** Set once by {@link Network}: called with every service after each saved change. */
    void onChange(Consumer<List<VipService>> listener) {
        current.onChange(listener);
    }

    /** Puts the saved services in force again, read through {@code handle}: another instance changed them. */
    void follow(Handle handle) {
        current.follow(store.all(handle));
    }

    public List<VipService> list(Caller caller) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(store::all);
    }

    public VipService get(Caller caller, String name) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> store.byName(h, name)).orElseThrow(() -> unknown(name));
    }

    /**
     * Creates or replaces the service {@code wanted.name()}; its addresses are the server's.
     *
     * @param addresses what the caller sent as {@code addrs}: empty, or the service's own addresses
     */
    public VipService put(Caller caller, VipService wanted, List<String> addresses) {
        caller.require(WRITE_SCOPE);
        String name = requireName(wanted.name());
        wanted.ports().forEach(VipServices::requirePort);
        List<String> tags = Tags.requireValid(wanted.tags());
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            VipService existing = store.byName(h, name).orElse(null);
            String ipv4;
            String ipv6;
            if (existing != null) {
                ipv4 = existing.ipv4();
                ipv6 = existing.ipv6();
            } else {
                AddressPool.Addresses pair = pool.allocate(address -> VipServiceStore.ipv4Taken(h, address));
                ipv4 = pair.ipv4();
                ipv6 = pair.ipv6();
            }
            if (addresses != null && !addresses.isEmpty() && !Set.copyOf(addresses).equals(Set.of(ipv4, ipv6))) {
                throw MeshException.invalid("the addresses of service " + name + " are assigned by the server"
                        + (existing == null ? "; leave addrs out when creating it" : ": " + ipv4 + ", " + ipv6));
            }
            VipService service = new VipService(name, ipv4, ipv6, wanted.comment(), wanted.annotations(),
                    wanted.ports(), tags);
            store.put(h, service, now);
            audit.append(h, caller.audited(now, existing == null ? "service.create" : "service.update", name,
                    AuditDetails.of().put("ipv4", ipv4)
                            .change("ports", existing == null ? null : existing.ports(), service.ports())
                            .change("tags", existing == null ? null : existing.tags(), service.tags())
                            .change("comment", existing == null ? null : existing.comment(), service.comment()).map()));
            current.putOnCommit(h, store.all(h));
            return service;
        });
    }

    public void delete(Caller caller, String name) {
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            if (!store.delete(h, name)) {
                throw unknown(name);
            }
            audit.append(h, caller.audited(now, "service.delete", name, Map.of()));
            current.putOnCommit(h, store.all(h));
        });
    }

    private static String requireName(String name) {
        if (name == null || !name.startsWith(PREFIX) || !DnsLabels.DOMAIN.matcher(name.substring(PREFIX.length())).matches()
                || name.substring(PREFIX.length()).contains(".")) {
            throw MeshException.invalid("invalid service name \"" + name + "\": use svc: followed by a DNS label");
        }
        return name;
    }

    private static void requirePort(String port) {
        if ("do-not-validate".equals(port)) {
            return;
        }
        var match = port == null ? null : PORT.matcher(port);
        if (match == null || !match.matches() || !inRange(match.group(2))
                || (match.group(4) != null && !inRange(match.group(4)))) {
            throw MeshException.invalid("invalid service port \"" + port
                    + "\": use tcp:<port>, udp:<port>, a range <low>-<high>, or do-not-validate");
        }
    }

    private static boolean inRange(String digits) {
        int port = Integer.parseInt(digits);
        return port >= 1 && port <= 65535;
    }

    private static MeshException unknown(String name) {
        return MeshException.notFound("no service " + name);
    }
}
