package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.VipServiceStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
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
    private final VipServiceStore store;
    private final AddressPool pool;
    private final Clock clock;
    private volatile List<VipService> current;
    private volatile Consumer<List<VipService>> onChange = services -> { };
    private final AuditStore audit = new AuditStore();

    VipServices(Jdbi jdbi, VipServiceStore store, AddressPool pool, Clock clock) {
        this.jdbi = jdbi;
        this.store = store;
        this.pool = pool;
        this.clock = clock;
        this.current = jdbi.withHandle(store::all);
    }

    /** Every service, for building maps (hosts serve them). */
    public List<VipService> current() {
        return current;
    }

    /** Set once by the composition root: called with every service after each saved change. */
    public void onChange(Consumer<List<VipService>> listener) {
        this.onChange = listener;
    }

    /** Reads the services again after a committed change and tells the listener. */
    private synchronized void changed() {
        current = jdbi.withHandle(store::all);
        onChange.accept(current);
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
        VipService saved = jdbi.inTransaction(h -> {
            VipService existing = store.byName(h, name).orElse(null);
            String ipv4;
            String ipv6;
            if (existing != null) {
                ipv4 = existing.ipv4();
                ipv6 = existing.ipv6();
            } else {
                AddressPool.Addresses pair = pool.allocate(VipServiceStore.ipv4InUse(h));
                ipv4 = pair.ipv4();
                ipv6 = pair.ipv6();
            }
            if (addresses != null && !addresses.isEmpty() && !Set.copyOf(addresses).equals(Set.of(ipv4, ipv6))) {
                throw MeshException.invalid("the addresses of service " + name + " are assigned by the server"
                        + (existing == null ? "; leave addrs out when creating it" : ": " + ipv4 + ", " + ipv6));
            }
            VipService service = new VipService(name, ipv4, ipv6, wanted.comment(), wanted.annotations(),
                    wanted.ports(), tags);
            Instant now = clock.instant();
            store.put(h, service, now);
            audit.append(h, caller.audited(now, existing == null ? "service.create" : "service.update", name,
                    AuditDetails.of().put("ipv4", ipv4)
                            .change("ports", existing == null ? null : existing.ports(), service.ports())
                            .change("tags", existing == null ? null : existing.tags(), service.tags())
                            .change("comment", existing == null ? null : existing.comment(), service.comment()).map()));
            return service;
        });
        changed();
        return saved;
    }

    public void delete(Caller caller, String name) {
        caller.require(WRITE_SCOPE);
        jdbi.useTransaction(h -> {
            if (!store.delete(h, name)) {
                throw unknown(name);
            }
            audit.append(h, caller.audited(clock.instant(), "service.delete", name, Map.of()));
        });
        changed();
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
