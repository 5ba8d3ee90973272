package io.meshcontrol.gui.relays;

import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.DerpRelayView;
import io.meshcontrol.api.DerpSettingsView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.Tagged;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Failures;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Relays (DERP): the server's relay settings, the relays added here (add, remove: the settings written whole with
 * {@code If-Match}, so a change made elsewhere meanwhile is reported and not overwritten) and the latency report.
 */
public final class RelaysViewModel {

    private record Everything(Tagged<DerpSettingsView> derp, DerpLatencyReport latency) {
    }

    private final MeshClient client;
    private final Background background;
    private final ObservableList<DerpRelayView> relays = FXCollections.observableArrayList();
    private final ObservableList<DerpLatencyReport.Region> regions = FXCollections.observableArrayList();
    private final StringProperty summary = new SimpleStringProperty("");
    private Tagged<DerpSettingsView> derp;

    public RelaysViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading the relays", () -> new Everything(client.derp(), client.derpLatency()), everything -> {
            show(everything.derp());
            regions.setAll(everything.latency().regions());
        });
    }

    private void show(Tagged<DerpSettingsView> tagged) {
        derp = tagged;
        DerpSettingsView settings = tagged.value();
        relays.setAll(settings.relays() == null ? List.of() : settings.relays());
        summary.set("Map URLs: " + (settings.urls() == null || settings.urls().isEmpty() ? "none"
                : String.join(" ", settings.urls()))
                + "\nEmbedded relay: " + (Boolean.TRUE.equals(settings.relayEnabled()) ? "on" : "off")
                + (Boolean.TRUE.equals(settings.stunEnabled()) ? ", STUN on " + settings.stunListenAddr() : "")
                + "\nRelays added here: " + relays.size()
                + (settings.stunUnavailable() == null ? "" : "\n" + settings.stunUnavailable()));
    }

    /** Adds a relay region of one host. */
    public void add(String regionId, String code, String host, String ipv4) {
        int region;
        try {
            region = Integer.parseInt(regionId.strip());
        } catch (NumberFormatException e) {
            background.tell("The region id is a number (900 and up are free for your own)");
            return;
        }
        List<DerpRelayView> next = new ArrayList<>(relays);
        next.add(new DerpRelayView(region, Controls.blankToNull(code), Controls.blankToNull(host),
                Controls.blankToNull(ipv4)));
        save(next, "Added relay " + host);
    }

    public void remove(DerpRelayView relay) {
        List<DerpRelayView> next = new ArrayList<>(relays);
        next.remove(relay);
        save(next, "Removed relay " + relay.host());
    }

    private void save(List<DerpRelayView> next, String done) {
        if (derp == null) {
            return;
        }
        Tagged<DerpSettingsView> base = derp;
        background.run("Saving the relays", () -> client.setDerp(base.value().withRelays(next), base.etag()), saved -> {
            show(saved);
            background.tell(done);
        }, failure -> background.tell(conflict(failure)
                ? "The relay settings were changed elsewhere meanwhile: nothing was overwritten; read again (F5)"
                        + " and repeat the change"
                : "Saving the relays: " + Failures.describe(failure)));
    }

    private static boolean conflict(Throwable failure) {
        return failure instanceof io.meshcontrol.api.ApiException api && api.status() == 412;
    }

    public ObservableList<DerpRelayView> relays() {
        return relays;
    }

    public ObservableList<DerpLatencyReport.Region> regions() {
        return regions;
    }

    public StringProperty summary() {
        return summary;
    }
}
