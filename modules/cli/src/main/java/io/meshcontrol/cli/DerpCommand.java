package io.meshcontrol.cli;

import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.DerpRefreshResult;
import io.meshcontrol.api.DerpRelayView;
import io.meshcontrol.api.DerpSettingsView;
import io.meshcontrol.api.Tagged;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "derp", description = "Show or change the DERP relay settings, the relay map and its latency.",
        subcommands = {DerpCommand.Show.class, DerpCommand.Set.class, DerpCommand.Relay.class, DerpCommand.Refresh.class,
                DerpCommand.Reset.class, DerpCommand.Latency.class})
final class DerpCommand extends CommandGroup {

    /** The settings as a two-column table, one setting per line. */
    static final List<Output.Column<Map.Entry<String, String>>> SETTING_COLUMNS = List.of(
            new Output.Column<>("SETTING", Map.Entry::getKey),
            new Output.Column<>("VALUE", Map.Entry::getValue));

    static final List<Output.Column<DerpLatencyReport.Region>> LATENCY_COLUMNS = List.of(
            new Output.Column<>("REGION", DerpLatencyReport.Region::regionId),
            new Output.Column<>("CODE", DerpLatencyReport.Region::code),
            new Output.Column<>("NAME", DerpLatencyReport.Region::name),
            new Output.Column<>("PREFERRED BY", DerpLatencyReport.Region::preferredBy),
            new Output.Column<>("REPORTING", DerpLatencyReport.Region::reporting),
            new Output.Column<>("MEDIAN MS", r -> millis(r.medianMs())),
            new Output.Column<>("P90 MS", r -> millis(r.p90Ms())));

    static String millis(Double value) {
        return value == null ? "-" : String.format(java.util.Locale.ROOT, "%.1f", value);
    }

    static List<Map.Entry<String, String>> rows(DerpSettingsView s) {
        List<Map.Entry<String, String>> rows = new ArrayList<>();
        rows.add(Map.entry("map URLs", s.urls() == null || s.urls().isEmpty() ? "(none: own relays only)"
                : String.join(" ", s.urls())));
        rows.add(Map.entry("auto update", onOff(s.autoUpdate()) + " every " + s.updateFrequency()));
        rows.add(Map.entry("embedded relay", onOff(s.relayEnabled())));
        rows.add(Map.entry("verify clients", onOff(s.verifyClients())));
        rows.add(Map.entry("STUN", onOff(s.stunEnabled()) + " (" + s.stunListenAddr() + ")"
                + (s.stunUnavailable() == null ? "" : ", unavailable: " + s.stunUnavailable() + "; retrying")));
        rows.add(Map.entry("ipv4", blankAs(s.ipv4(), "(resolve the host name)")));
        rows.add(Map.entry("ipv6", blankAs(s.ipv6(), "(resolve the host name)")));
        for (DerpRelayView r : s.relays() == null ? List.<DerpRelayView>of() : s.relays()) {
            rows.add(Map.entry("relay " + r.regionId(), r.code() + " " + r.host() + (r.ipv4() == null ? "" : " " + r.ipv4())));
        }
        return rows;
    }

    private static String onOff(Boolean value) {
        return Boolean.TRUE.equals(value) ? "on" : "off";
    }

    private static String blankAs(String value, String blank) {
        return value == null || value.isBlank() ? blank : value;
    }

    /** Prints the settings: a table of settings for people, the document for {@code -o json|yaml}. */
    static void print(CliContext context, Output output, DerpSettingsView settings) {
        output.print(context, settings, rows(settings), SETTING_COLUMNS);
    }

    /** Reads the settings, changes them, and writes them back only if nobody changed them in between (If-Match). */
    abstract static class Edit extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        abstract DerpSettingsView change(DerpSettingsView current);

        @Override
        public Integer call() {
            Tagged<DerpSettingsView> current = client().derp();
            Tagged<DerpSettingsView> saved = client().setDerp(change(current.value()), current.etag());
            print(context(), output, saved.value());
            return 0;
        }
    }

    @Command(name = "show", description = "Show the DERP settings in force.")
    static final class Show extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            print(context(), output, client().derp().value());
            return 0;
        }
    }

    @Command(name = "set", description = "Change only the settings given; the rest stay as they are.")
    static final class Set extends Edit {
        @Option(names = "--url", description = "DERP map URL (repeat for several, in merge order; \"\" for none: "
                + "only own relays)")
        List<String> urls;

        @Option(names = "--auto-update", description = "on or off: refetch map URLs and reread map files")
        SettingsCommand.Switch autoUpdate;

        @Option(names = "--update-frequency", description = "How often, e.g. 24h or 30m (at least 1m)")
        String updateFrequency;

        @Option(names = "--relay", description = "on or off: run and publish the embedded relay")
        SettingsCommand.Switch relay;

        @Option(names = "--ipv4", description = "Published IPv4 of the embedded relay, none, or \"\" to resolve")
        String ipv4;

        @Option(names = "--ipv6", description = "Published IPv6 of the embedded relay, none, or \"\" to resolve")
        String ipv6;

        @Option(names = "--verify-clients", description = "on or off: only nodes of this network may use the relay")
        SettingsCommand.Switch verifyClients;

        @Option(names = "--stun-enabled", description = "on or off: answer STUN (off helps against hairpin NAT)")
        SettingsCommand.Switch stunEnabled;

        @Option(names = "--stun-listen-addr", description = "UDP host:port for STUN; port 0 binds a free port")
        String stunListenAddr;

        @Override
        DerpSettingsView change(DerpSettingsView c) {
            return new DerpSettingsView(
                    urls == null ? c.urls() : urls.stream().filter(u -> !u.isBlank()).toList(),
                    or(SettingsCommand.Switch.value(autoUpdate), c.autoUpdate()),
                    or(updateFrequency, c.updateFrequency()),
                    or(SettingsCommand.Switch.value(relay), c.relayEnabled()),
                    or(ipv4, c.ipv4()),
                    or(ipv6, c.ipv6()),
                    or(SettingsCommand.Switch.value(verifyClients), c.verifyClients()),
                    or(SettingsCommand.Switch.value(stunEnabled), c.stunEnabled()),
                    or(stunListenAddr, c.stunListenAddr()),
                    c.relays(), null);
        }

        private static <T> T or(T given, T current) {
            return given != null ? given : current;
        }
    }

    @Command(name = "relay", description = "Add or remove relays of your own (each published as a region).",
            subcommands = {Relay.Add.class, Relay.Remove.class})
    static final class Relay extends CommandGroup {

        @Command(name = "add", description = "Publish a relay run elsewhere as its own region.")
        static final class Add extends Edit {
            @Option(names = "--region", required = true, description = "Region id (a positive number, not the embedded 999)")
            int region;

            @Option(names = "--code", required = true, description = "Short region code clients show")
            String code;

            @Option(names = "--host", required = true, description = "The relay's HTTP host name or IP address")
            String host;

            @Option(names = "--ipv4", description = "IPv4 address clients dial instead of resolving the host")
            String ipv4;

            @Override
            DerpSettingsView change(DerpSettingsView current) {
                List<DerpRelayView> relays = new ArrayList<>(current.relays() == null ? List.of() : current.relays());
                if (relays.stream().anyMatch(r -> r.regionId() == region)) {
                    throw new CliException("region " + region + " already has a relay; remove it first");
                }
                relays.add(new DerpRelayView(region, code, host, ipv4));
                return current.withRelays(relays);
            }
        }

        @Command(name = "remove", description = "Stop publishing a relay of your own.")
        static final class Remove extends Edit {
            @Option(names = "--region", required = true, description = "Region id of the relay")
            int region;

            @Override
            DerpSettingsView change(DerpSettingsView current) {
                List<DerpRelayView> relays = new ArrayList<>(current.relays() == null ? List.of() : current.relays());
                if (!relays.removeIf(r -> r.regionId() == region)) {
                    throw new CliException("no relay of your own has region " + region + " (svc derp show lists them)");
                }
                return current.withRelays(relays);
            }
        }
    }

    @Command(name = "refresh", description = "Fetch the DERP map URLs and reread the map files now.")
    static final class Refresh extends Subcommand implements Callable<Integer> {
        @Override
        public Integer call() {
            DerpRefreshResult result = client().refreshDerp();
            if (result.problems() == null || result.problems().isEmpty()) {
                context().note("DERP maps refreshed");
                return 0;
            }
            result.problems().forEach(problem -> context().note("svc: " + problem));
            return Svc.FAILED;
        }
    }

    @Command(name = "reset", description = "Put the configuration file's DERP settings back in force.")
    static final class Reset extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            print(context(), output, client().resetDerp().value());
            return 0;
        }
    }

    @Command(name = "latency", description = "Per-region relay latency as the nodes report it (- means no data).")
    static final class Latency extends Subcommand implements Callable<Integer> {
        @Mixin
        Output output;

        @Override
        public Integer call() {
            DerpLatencyReport report = client().derpLatency();
            output.print(context(), report, report.regions(), LATENCY_COLUMNS);
            return 0;
        }
    }
}
