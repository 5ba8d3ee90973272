package io.meshcontrol.gui.dns;

import static io.meshcontrol.gui.screen.Controls.heading;

import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Screen;
import java.util.Map;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.VBox;

/** DNS: nameservers, override, split DNS and search paths, saved together (Ctrl+S). */
public final class DnsScreen implements Screen {

    private final DnsViewModel model;
    private final VBox root = new VBox(8);

    public DnsScreen(Connection connection, Background background) {
        model = new DnsViewModel(connection.client(), background);
        Label magic = new Label();
        magic.setId("magicDns");
        magic.textProperty().bind(model.magic());
        TextArea nameservers = new TextArea();
        nameservers.setId("dnsNameservers");
        nameservers.setPromptText("1.1.1.1\n9.9.9.9 exit   (exit: keep using it with an exit node)");
        nameservers.setPrefRowCount(4);
        nameservers.textProperty().bindBidirectional(model.nameservers());
        CheckBox override = new CheckBox("Override the machines' own DNS settings");
        override.setId("dnsOverride");
        override.selectedProperty().bindBidirectional(model.override());
        TextArea split = new TextArea();
        split.setId("dnsSplit");
        split.setPromptText("corp.example.com: 10.0.0.53");
        split.setPrefRowCount(3);
        split.textProperty().bindBidirectional(model.splitDns());
        TextField search = new TextField();
        search.setId("dnsSearchPaths");
        search.setPromptText("corp.example.com, example.com");
        search.textProperty().bindBidirectional(model.searchPaths());
        Button save = new Button("Save DNS");
        save.setId("saveDns");
        save.setOnAction(event -> model.save());

        root.getChildren().addAll(magic, heading("Nameservers (one a line)"), nameservers, override,
                heading("Split DNS (a domain and its nameservers, one a line)"), split,
                heading("Search paths"), search, save);
        root.setPadding(new Insets(8));
    }

    @Override
    public String title() {
        return "DNS";
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
    public Map<KeyCombination, Runnable> shortcuts() {
        return Map.of(KeyCombination.keyCombination("Shortcut+S"), model::save);
    }
}
