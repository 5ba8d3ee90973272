package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.store.AppStore;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Apps: domain sets whose traffic leaves through app connector nodes. Each change is written with its audit entry in
 * one transaction; then the new set reaches the map context through the one listener the composition root sets
 * (connectors get their capability, every machine its split DNS), and the connectors' routes are approved or
 * withdrawn again ({@link RouteApprovals#applyApps}).
 */
public final class Apps {

    public static final String WRITE_SCOPE = "policy_file";
    public static final String READ_SCOPE = "policy_file:read";
    private static final int MAX_DOMAINS = 1_000;

    /**
     * A connector node assigned to an app, as the read view shows it.
     *
     * @param learnedRoutes routes it learned and had approved through its apps
     * @param pendingRoutes routes it advertises that are not approved
     */
    public record Connector(long nodeId, String name, List<String> tags, boolean online, int learnedRoutes,
            int pendingRoutes) {
    }

    /** An app with the connectors assigned to it now. */
    public record View(App app, List<Connector> connectors) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final AppStore store;
    private final AuditStore audit;
    private final Snapshots snapshots;
    private final InForce<AppConnectors> current;
    private volatile RouteApprovals approvals;

    Apps(Jdbi jdbi, Writer writer, AppStore store, AuditStore audit, Snapshots snapshots) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.audit = audit;
        this.snapshots = snapshots;
        this.current = new InForce<>(AppConnectors.of(jdbi.withHandle(store::all)), writer, ChangeLog.Kind.APPS);
    }

    /** Set once while wiring: the approvals a change of apps is applied to. */
    void approveRoutesWith(RouteApprovals routeApprovals) {
        this.approvals = routeApprovals;
    }

    /** Set once by {@link Network}: called with the new apps after each change. */
    void onChange(Consumer<AppConnectors> listener) {
        current.onChange(listener);
    }

    /** The apps in force, for building maps and approving routes. */
    public AppConnectors current() {
        return current.get();
    }

    public List<View> list(Caller caller) {
        caller.require(READ_SCOPE);
        return current.get().apps().stream().map(this::view).toList();
    }

    public View get(Caller caller, long id) {
        caller.require(READ_SCOPE);
        return view(find(id));
    }

    /** Creates an app from {@code wanted}'s fields (its id and times are the server's). */
    public View create(Caller caller, App wanted) {
        caller.require(WRITE_SCOPE);
        App valid = validate(wanted);
        App created = writer.change(caller, WRITE_SCOPE, (h, now) -> {
            requireFreeName(h, valid.name(), 0);
            App app = new App(store.nextId(h), valid.name(), valid.description(), valid.domains(),
                    valid.connectors(), valid.routes(), now, now);
            store.put(h, app);
            audit.append(h, caller.audited(now, "app.create", String.valueOf(app.id()), details(app)));
            changed(h);
            return app;
        });
        approvals.applyApps();
        return view(created);
    }

    /** Replaces every field of app {@code id} with {@code wanted}'s. */
    public View update(Caller caller, long id, App wanted) {
        caller.require(WRITE_SCOPE);
        App valid = validate(wanted);
        App updated = writer.change(caller, WRITE_SCOPE, (h, now) -> {
            App existing = store.byId(h, id).orElseThrow(() -> unknown(id));
            requireFreeName(h, valid.name(), id);
            App app = new App(id, valid.name(), valid.description(), valid.domains(), valid.connectors(),
                    valid.routes(), existing.createdAt(), now);
            store.put(h, app);
            audit.append(h, caller.audited(now, "app.update", String.valueOf(id), details(app)));
            changed(h);
            return app;
        });
        approvals.applyApps();
        return view(updated);
    }

    public void delete(Caller caller, long id) {
        writer.write(caller, WRITE_SCOPE, (h, now) -> {
            App app = store.byId(h, id).orElseThrow(() -> unknown(id));
            store.delete(h, id);
            audit.append(h, caller.audited(now, "app.delete", String.valueOf(id), Map.of("name", app.name())));
            changed(h);
        });
        approvals.applyApps();
    }

    /**
     * In a change's transaction: the apps as it leaves them go in force (in the maps) as it commits. The caller then
     * brings the connectors' approvals up to date, each node in a change of its own that reads the apps in force.
     */
    private void changed(Handle h) {
        current.putOnCommit(h, AppConnectors.of(store.all(h)));
    }

    /** Puts the saved apps in force again, read through {@code handle}: another instance changed them. */
    void follow(Handle handle) {
        current.follow(AppConnectors.of(store.all(handle)));
    }

    private View view(App app) {
        AppConnectors apps = AppConnectors.of(List.of(app));
        List<NodeEntry> entries = snapshots.current().entriesInIdOrder().stream()
                .filter(e -> !apps.appsOf(e.node()).isEmpty()).toList();
        if (entries.isEmpty()) {
            return new View(app, List.of());
        }
        return jdbi.withHandle(h -> {
            List<Connector> connectors = new ArrayList<>();
            for (NodeEntry entry : entries) {
                Node node = entry.node();
                int pending = (int) node.advertisedRoutes().stream()
                        .filter(r -> !node.approvedRoutes().contains(r)).count();
                int learned = (int) store.learnedRoutes(h, node.id()).stream()
                        .filter(r -> node.approvedRoutes().contains(IpPrefix.parse(r))).count();
                connectors.add(new Connector(node.id(), node.givenName(), node.tags(), entry.online(), learned,
                        pending));
            }
            return new View(app, List.copyOf(connectors));
        });
    }

    private App find(long id) {
        return current.get().apps().stream().filter(app -> app.id() == id).findFirst().orElseThrow(() -> unknown(id));
    }

    private void requireFreeName(org.jdbi.v3.core.Handle h, String name, long id) {
        if (store.nameTaken(h, name, id)) {
            throw MeshException.conflict("an app named \"" + name + "\" already exists");
        }
    }

    /** The app's fields checked and normalized: domains lower-case, connectors defaulting to {@code *}. */
    static App validate(App app) {
        String name = app.name() == null ? "" : app.name().strip();
        if (name.isEmpty() || name.codePointCount(0, name.length()) > Limits.NAME) {
            throw MeshException.invalid("an app name has 1 to " + Limits.NAME + " characters, got \"" + app.name()
                    + "\"");
        }
        if (name.codePoints().anyMatch(Character::isISOControl)) {
            throw MeshException.invalid("an app name cannot contain control characters");
        }
        Limits.text("description", app.description(), Limits.DESCRIPTION);
        Limits.count("domains", app.domains(), MAX_DOMAINS);
        Limits.count("routes", app.routes(), Limits.ROUTES);
        LinkedHashSet<String> domains = new LinkedHashSet<>();
        for (String domain : app.domains()) {
            domains.add(domain(domain));
        }
        List<String> connectors = app.connectors().isEmpty() ? List.of(App.ANY_CONNECTOR)
                : app.connectors().contains(App.ANY_CONNECTOR)
                        ? connectorsWithAny(app.connectors())
                        : Tags.requireValid(app.connectors());
        List<IpPrefix> routes = RoutePrefixes.parse(app.routes());
        for (IpPrefix route : routes) {
            if (RoutePrefixes.isExit(route)) {
                throw MeshException.invalid("app route " + route + " is refused: an app cannot route all traffic; "
                        + "use an exit node for that");
            }
        }
        if (domains.isEmpty() && routes.isEmpty()) {
            throw MeshException.invalid("an app needs at least one domain or route");
        }
        return new App(app.id(), name, app.description(), List.copyOf(domains), connectors,
                routes.stream().map(IpPrefix::toString).toList(), app.createdAt(), app.updatedAt());
    }

    private static List<String> connectorsWithAny(List<String> connectors) {
        List<String> others = connectors.stream().filter(c -> !App.ANY_CONNECTOR.equals(c)).toList();
        Tags.requireValid(others);
        return List.of(App.ANY_CONNECTOR);
    }

    private static String domain(String text) {
        String domain = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (domain.endsWith(".")) {
            domain = domain.substring(0, domain.length() - 1);
        }
        String base = domain.startsWith("*.") ? domain.substring(2) : domain;
        if (!DnsLabels.DOMAIN.matcher(base).matches()) {
            throw MeshException.invalid("invalid app domain \"" + text + "\": use a domain name such as example.com "
                    + "or a wildcard such as *.example.com");
        }
        return domain;
    }

    private static Map<String, String> details(App app) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("name", app.name());
        details.put("domains", String.join(" ", app.domains()));
        details.put("connectors", String.join(" ", app.connectors()));
        details.put("routes", String.join(" ", app.routes()));
        return details;
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no app " + id);
    }
}
