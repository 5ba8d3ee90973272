package io.meshcontrol.gui.relays;

import static io.meshcontrol.gui.screen.Controls.column;
import static io.meshcontrol.gui.screen.Controls.heading;
import static io.meshcontrol.gui.screen.Controls.row;

import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.DerpRelayView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import io.meshcontrol.gui.screen.Selection;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;

/** Relays: the settings, relays of your own (add, remove) and the latency report. */
public final class RelaysScreen implements Screen {

    private final RelaysViewModel model;
    private final VBox root = new VBox(10);
    private TableView<DerpLatencyReport.Region> latencyTable;

    public RelaysScreen(Connection connection, Background background) {
        model = new RelaysViewModel(connection.client(), background);
        Label summary = new Label();
        summary.setId("derpSummary");
        summary.textProperty().bind(model.summary());

        TableView<DerpRelayView> relays = Controls.table("ownRelays", model.relays(),
                column("Region", relay -> String.valueOf(relay.regionId())),
                column("Code", relay -> Controls.orEmpty(relay.code())),
                column("Host", relay -> Controls.orEmpty(relay.host())),
                column("IPv4", relay -> Controls.orEmpty(relay.ipv4())));
        relays.setPlaceholder(new Label("No relays added here"));
        relays.setPrefHeight(130);
        TextField region = Controls.field("relayRegion", "region id (900)");
        region.setPrefColumnCount(8);
        TextField code = Controls.field("relayCode", "code (home)");
        code.setPrefColumnCount(8);
        TextField host = Controls.field("relayHost", "relay.example.com");
        host.setPrefColumnCount(18);
        TextField ipv4 = Controls.field("relayIpv4", "IPv4 (optional)");
        Button add = new Button("Add relay");
        add.setId("addRelay");
        add.setOnAction(event -> model.add(region.getText(), code.getText(), host.getText(), ipv4.getText()));
        Button remove = new Button("Remove selected");
        remove.setId("removeRelay");
        remove.getStyleClass().add("danger");
        Selection<DerpRelayView> relay = Selection.of(relays, item -> item.regionId() + "/" + item.host());
        remove.disableProperty().bind(relay.none());
        remove.setOnAction(event -> {
            DerpRelayView chosen = relay.get();
            Controls.confirm(root, "Remove the relay " + chosen.host() + "? Machines stop using it.",
                    () -> model.remove(chosen));
        });

        TableView<DerpLatencyReport.Region> latency = Controls.table("derpLatency", model.regions(),
                column("Region", item -> item.regionId() + " " + item.code()),
                column("Name", DerpLatencyReport.Region::name),
                column("Home of", item -> item.preferredBy() + " machines"),
                column("Measured by", item -> Integer.toString(item.reporting())),
                column("Median", item -> milliseconds(item.medianMs())),
                column("90th percentile", item -> milliseconds(item.p90Ms())));
        latency.setPrefHeight(150);
        latencyTable = latency;
        latency.setPlaceholder(new Label("No relay regions in the DERP map"));

        root.getChildren().addAll(heading("Relay settings"), summary,
                heading("Relays added here"), relays, row(region, code, host, ipv4, add, remove),
                heading("Latency as the machines report it"), latency);
        root.setPadding(new Insets(8));
    }

    private static String milliseconds(Double value) {
        return value == null ? "–" : String.format("%.1f ms", value);
    }

    @Override
    public String title() {
        return "Relays";
    }

    @Override
    public Parent root() {
        return root;
    }

    @Override
    public void refresh() {
        model.refresh();
    }

    @Override
    public void show(String id) {
        Controls.selectWhenListed(latencyTable, region -> Integer.toString(region.regionId()).equals(id));
    }
}
