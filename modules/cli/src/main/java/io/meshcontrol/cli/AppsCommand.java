package io.meshcontrol.cli;

import io.meshcontrol.api.AppConnectorView;
import io.meshcontrol.api.AppList;
import io.meshcontrol.api.AppRequest;
import io.meshcontrol.api.AppView;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "apps", description = "Manage apps: domains whose traffic leaves the network through app connector "
        + "nodes (tagged machines running tailscale up --advertise-connector). See docs/apps.md.",
        subcommands = {AppsCommand.ListApps.class, AppsCommand.Show.class, AppsCommand.Create.class,
                AppsCommand.Update.class, AppsCommand.Delete.class})
final class AppsCommand extends CommandGroup {

    static final List<Output.Column<AppView>> COLUMNS = List.of(
            new Output.Column<>("ID", AppView::id),
            new Output.Column<>("NAME", AppView::name),
            new Output.Column<>("DOMAINS", a -> String.join(",", a.domains())),
            new Output.Column<>("CONNECTORS", a -> String.join(",", a.connectors())),
            new Output.Column<>("ROUTES", a -> String.join(",", a.routes())),
            new Output.Column<>("CONNECTOR NODES", a -> String.valueOf(a.connectorNodes().size())));

    static final List<Output.Column<AppConnectorView>> CONNECTOR_COLUMNS = List.of(
            new Output.Column<>("NODE", AppConnectorView::nodeId),
            new Output.Column<>("NAME", AppConnectorView::name),
            new Output.Column<>("TAGS", c -> String.join(",", c.tags())),
            new Output.Column<>("ONLINE", c -> c.online() ? "yes" : "no"),
            new Output.Column<>("LEARNED", c -> String.valueOf(c.learnedRoutes())),
            new Output.Column<>("PENDING", c -> String.valueOf(c.pendingRoutes())));

    @Command(name = "list", description = "List apps.")
    static final class ListApps extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            List<AppView> apps = client().apps();
            output.print(context(), new AppList(apps), apps, COLUMNS);
            return 0;
        }
    }

    @Command(name = "show", description = "Show an app and its connector nodes with their learned and pending routes.")
    static final class Show extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "The app's id, as listed")
        String id;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            AppView app = client().app(id);
            output.print(context(), app, List.of(app), COLUMNS);
            if (output.isTable() && !app.connectorNodes().isEmpty()) {
                context().out().println();
                context().out().print(Output.table(app.connectorNodes(), CONNECTOR_COLUMNS));
            }
            return 0;
        }
    }

    @Command(name = "create", description = "Create an app.")
    static final class Create extends Subcommand implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "1 to 63 characters, unique")
        String name;

        @Option(names = "--description", description = "What the app is")
        String description;

        @Option(names = "--domain", description = "A domain, or *.<domain> for it and every name under it "
                + "(repeatable)")
        List<String> domains;

        @Option(names = "--connector", description = "tag:<name> of the connectors, or * for every connector "
                + "(repeatable; default *)")
        List<String> connectors;

        @Option(names = "--route", description = "A static prefix the connectors always route, e.g. 192.0.2.0/24 "
                + "(repeatable)")
        List<String> routes;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            AppView created = client().createApp(new AppRequest(name, description, domains, connectors, routes));
            output.print(context(), created, List.of(created), COLUMNS);
            return 0;
        }
    }

    @Command(name = "update", description = "Change an app; options left out keep their value, a repeated option "
            + "replaces the whole list.")
    static final class Update extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "The app's id, as listed")
        String id;

        @Option(names = "--name", description = "A new name")
        String name;

        @Option(names = "--description", description = "What the app is")
        String description;

        @Option(names = "--domain", description = "Replaces the domains (repeatable)")
        List<String> domains;

        @Option(names = "--connector", description = "Replaces the connectors (repeatable)")
        List<String> connectors;

        @Option(names = "--route", description = "Replaces the static routes (repeatable); --route none clears them")
        List<String> routes;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            AppView now = client().app(id);
            List<String> newRoutes = routes == null ? now.routes()
                    : routes.equals(List.of("none")) ? List.of() : routes;
            AppView updated = client().updateApp(id, new AppRequest(name == null ? now.name() : name,
                    description == null ? now.description() : description, domains == null ? now.domains() : domains,
                    connectors == null ? now.connectors() : connectors, newRoutes));
            output.print(context(), updated, List.of(updated), COLUMNS);
            return 0;
        }
    }

    @Command(name = "delete", description = "Delete an app: its connectors' learned routes lose their approval.")
    static final class Delete extends Subcommand implements Callable<Integer> {
        @Option(names = "--id", required = true, description = "The app's id, as listed")
        String id;

        @Override
        public Integer call() {
            client().deleteApp(id);
            context().note("deleted app " + id);
            return 0;
        }
    }
}
