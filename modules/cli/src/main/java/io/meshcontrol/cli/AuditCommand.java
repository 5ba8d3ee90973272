package io.meshcontrol.cli;

import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.api.AuditPage;
import io.meshcontrol.api.AuditQuery;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "audit", description = "Read the audit log.", subcommands = {AuditCommand.ListEntries.class})
final class AuditCommand extends CommandGroup {

    static final List<Output.Column<AuditEntryView>> COLUMNS = List.of(
            new Output.Column<>("ID", AuditEntryView::id),
            new Output.Column<>("TIME", AuditEntryView::time),
            new Output.Column<>("ACTOR", AuditEntryView::actor),
            new Output.Column<>("SOURCE", AuditEntryView::source),
            new Output.Column<>("ACTION", AuditEntryView::action),
            new Output.Column<>("TARGET", AuditEntryView::target),
            new Output.Column<>("DETAILS", e -> details(e.details())));

    static String details(Map<String, String> details) {
        return details.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(d -> d.getKey() + "=" + d.getValue()).collect(Collectors.joining(" "));
    }

    @Command(name = "list", description = "List audit entries, newest first; filters combine.")
    static final class ListEntries extends Subcommand implements Callable<Integer> {
        @Option(names = "--actor", description = "Only entries by this actor (local-admin, apikey:<id>, user:<name>, ...)")
        String actor;

        @Option(names = "--action", description = "Only this action, or actions under a prefix ending in a dot (apikey.)")
        String action;

        @Option(names = "--target", description = "Only entries about this id or name")
        String target;

        @Option(names = "--since", description = "Only entries at or after this time (RFC 3339)")
        String since;

        @Option(names = "--until", description = "Only entries before this time (RFC 3339)")
        String until;

        @Option(names = "--before", description = "Only entries older than this entry id (to read further back)")
        Long before;

        @Option(names = "--limit", description = "At most this many entries (1-1000, default 100)")
        Integer limit;

        @Mixin
        Output output;

        @Override
        public Integer call() {
            AuditPage page = client().audit(new AuditQuery(actor, action, target, since, until, before, limit));
            output.print(context(), page, page.entries(), COLUMNS);
            if (page.next() != null) {
                context().note("older entries: --before " + page.next());
            }
            return 0;
        }
    }
}
