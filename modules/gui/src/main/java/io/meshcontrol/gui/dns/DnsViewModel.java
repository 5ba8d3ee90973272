package io.meshcontrol.gui.dns;

import io.meshcontrol.api.DnsView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * DNS as the machines get it: nameservers (one a line; {@code exit} after one keeps it in use with an exit node),
 * whether they override the machines' own DNS, split DNS ({@code domain: nameserver ...} a line), search paths.
 * MagicDNS and the base domain are the configuration file's and only shown. Saved whole ({@code PUT /api/v1/dns});
 * the server checks every field and names the one it refuses.
 */
public final class DnsViewModel {

    private final MeshClient client;
    private final Background background;
    private final StringProperty magic = new SimpleStringProperty("");
    private final StringProperty nameservers = new SimpleStringProperty("");
    private final BooleanProperty override = new SimpleBooleanProperty(false);
    private final StringProperty splitDns = new SimpleStringProperty("");
    private final StringProperty searchPaths = new SimpleStringProperty("");
    private DnsView shown;

    public DnsViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading DNS", client::dns, this::show);
    }

    private void show(DnsView dns) {
        shown = dns;
        magic.set("MagicDNS " + (Boolean.TRUE.equals(dns.magicDns()) ? "on" : "off") + ", base domain "
                + (dns.baseDomain() == null || dns.baseDomain().isEmpty() ? "none" : dns.baseDomain())
                + " (set in the configuration file)");
        nameservers.set(String.join("\n", lines(dns.nameservers())));
        override.set(Boolean.TRUE.equals(dns.overrideLocalDns()));
        List<String> split = new ArrayList<>();
        if (dns.splitDns() != null) {
            dns.splitDns().forEach((domain, servers) -> split.add(domain + ": " + String.join(" ",
                    servers.stream().map(DnsViewModel::line).toList())));
        }
        splitDns.set(String.join("\n", split));
        searchPaths.set(dns.searchPaths() == null ? "" : String.join(", ", dns.searchPaths()));
    }

    private static List<String> lines(List<DnsView.Nameserver> servers) {
        return servers == null ? List.of() : servers.stream().map(DnsViewModel::line).toList();
    }

    private static String line(DnsView.Nameserver server) {
        return server.address() + (Boolean.TRUE.equals(server.useWithExitNode()) ? " exit" : "");
    }

    public void save() {
        Map<String, List<DnsView.Nameserver>> split = new LinkedHashMap<>();
        for (String line : splitDns.get().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            String domain = colon < 0 ? line.strip() : line.substring(0, colon).strip();
            split.put(domain, servers(colon < 0 ? List.of() : Controls.words(line.substring(colon + 1))));
        }
        List<DnsView.Nameserver> global = new ArrayList<>();
        for (String line : nameservers.get().split("\n")) {
            global.addAll(servers(Controls.words(line)));
        }
        DnsView change = new DnsView(shown == null ? null : shown.magicDns(), shown == null ? null : shown.baseDomain(),
                override.get(), global, split, Controls.words(searchPaths.get()));
        background.run("Saving DNS", () -> client.setDns(change), saved -> {
            show(saved);
            background.tell("DNS saved");
        });
    }

    /** Addresses, each optionally followed by the word {@code exit}. */
    private static List<DnsView.Nameserver> servers(List<String> words) {
        List<DnsView.Nameserver> servers = new ArrayList<>();
        for (String word : words) {
            if (word.equals("exit") && !servers.isEmpty()) {
                servers.set(servers.size() - 1, new DnsView.Nameserver(servers.getLast().address(), true));
            } else {
                servers.add(new DnsView.Nameserver(word, false));
            }
        }
        return servers;
    }

    public StringProperty magic() {
        return magic;
    }

    public StringProperty nameservers() {
        return nameservers;
    }

    public BooleanProperty override() {
        return override;
    }

    public StringProperty splitDns() {
        return splitDns;
    }

    public StringProperty searchPaths() {
        return searchPaths;
    }
}
