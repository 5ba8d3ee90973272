package io.meshcontrol.gui.machines;

import io.meshcontrol.api.NodeView;
import io.meshcontrol.gui.connect.Connection;
import io.meshcontrol.api.PeerView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Change;
import io.meshcontrol.gui.screen.Controls;
import io.meshcontrol.gui.screen.Screen;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The machines table (filter, sort, live) and the selected machine's detail pane with its actions. */
public final class MachinesScreen implements Screen {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final MachinesViewModel model;
    private final SplitPane root = new SplitPane();
    private final TableView<NodeView> table = new TableView<>();
    private final VBox detail = new VBox(10);
    private final TextField filter;
    /** The machines the user selected, by id; a poll's new rows are selected again from it. */
    private final java.util.Set<String> picked = new java.util.LinkedHashSet<>();
    private boolean restoringPicks;
    private Runnable clearFilters = () -> { };
    // The detail pane is drawn again when the poll brings a new state; what the user is typing stays.
    private NodeView shownNode;
    private TextField nameField;
    private TextField tagsField;
    private final TableView<PeerView> peers;
    private final ListView<String> packetFilter;

    public MachinesScreen(Connection connection, Background background) {
        model = new MachinesViewModel(connection.client(), background);
        filter = new TextField();
        filter.setId("machineFilter");
        filter.setPromptText("Filter: name, user, tag, address, \"online\", \"needs approval\"… (Ctrl+F)");
        filter.textProperty().bindBidirectional(model.filter());
        peers = Controls.table("machinePeers", model.peers(), Controls.column("Peer", PeerView::name),
                Controls.column("Owner", peer -> peer.user() == null ? String.join(" ", peer.tags()) : peer.user()),
                Controls.column("Addresses", peer -> java.util.stream.Stream.of(peer.ipv4(), peer.ipv6())
                        .filter(java.util.Objects::nonNull).collect(java.util.stream.Collectors.joining("  "))),
                Controls.column("Online", peer -> peer.online() ? "online" : "offline"));
        peers.setPlaceholder(new Label("No peers: the policy lets this machine see no other"));
        peers.setPrefHeight(160);
        packetFilter = new ListView<>(model.packetFilter());
        packetFilter.setId("machinePacketFilter");
        packetFilter.setPlaceholder(new Label("Nothing may reach this machine"));
        packetFilter.setPrefHeight(120);

        table.setId("machines");
        table.getColumns().add(text("Machine", NodeView::name));
        table.getColumns().add(text("Owner", MachinesViewModel::owner));
        table.getColumns().add(text("OS", MachineFacts::os));
        table.getColumns().add(text("Client", MachineFacts::clientVersion));
        table.getColumns().add(text("Addresses", MachinesViewModel::addresses));
        table.getColumns().add(text("Connection", MachineFacts::connection));
        table.getColumns().add(lastSeen());
        table.getColumns().add(time("Key expiry", NodeView::keyExpiry, "never"));
        table.getColumns().add(time("Created", NodeView::createdAt, ""));
        table.getColumns().add(text("Status", MachinesViewModel::status));
        table.getColumns().add(text("Routes", node -> node.routes() == null ? ""
                : String.join(" ", node.routes().available())));
        table.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        table.setPlaceholder(new Label("No machines yet: join one with a pre-auth key (Keys tab)"));
        SortedList<NodeView> sorted = new SortedList<>(model.shown());
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        Controls.fitToContent(table);
        table.getSelectionModel().selectedItemProperty().addListener((observable, was, node) -> {
            if (node != null) {
                model.selected().set(node);
            }
        });
        // A row updated by the poll drops out of the table's selection; the machines the user picked stay picked.
        table.getSelectionModel().getSelectedItems().addListener((javafx.collections.ListChangeListener<NodeView>)
                change -> {
                    if (!model.replacing() && !restoringPicks) {
                        picked.clear();
                        table.getSelectionModel().getSelectedItems().forEach(node -> picked.add(node.id()));
                    }
                });
        model.shown().addListener((javafx.collections.ListChangeListener<NodeView>) change -> javafx.application.Platform
                .runLater(this::restorePicks));
        model.selected().addListener((observable, was, node) -> {
            if (node != null && !node.equals(table.getSelectionModel().getSelectedItem())) {
                table.getSelectionModel().select(node);
            }
            showDetail(node);
        });

        Button register = new Button("Register a machine…");
        register.setId("registerMachine");
        register.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        register.setTooltip(new javafx.scene.control.Tooltip(
                "Complete a waiting tailscale up: paste the /register/… link it printed"));
        register.setOnAction(event -> new RegisterDialog(root, connection.client(), background).show());
        HBox top = new HBox(8, filter, register);
        HBox.setHgrow(filter, Priority.ALWAYS);
        VBox left = new VBox(8, top, filterBar(), table, bulkBar());
        VBox.setVgrow(table, Priority.ALWAYS);
        left.setPadding(new Insets(8));
        detail.setId("machineDetail");
        detail.setPadding(new Insets(12));
        detail.setMinWidth(320);
        showDetail(null);
        ScrollPane detailScroll = new ScrollPane(detail);
        detailScroll.setFitToWidth(true);
        root.getItems().addAll(left, detailScroll);
        root.setDividerPositions(0.7);
    }

    /** The server-side filters: OS, tag, user and what needs attention. */
    private javafx.scene.layout.FlowPane filterBar() {
        javafx.scene.control.ComboBox<String> os = new javafx.scene.control.ComboBox<>(
                javafx.collections.FXCollections.observableArrayList("", "linux", "windows", "macOS", "iOS",
                        "android", "freebsd"));
        os.setId("filterOs");
        os.setEditable(true);
        os.setPromptText("any OS");
        os.setPrefWidth(110);
        TextField tag = Controls.field("filterTag", "tag");
        tag.setPrefColumnCount(8);
        TextField user = Controls.field("filterUser", "user");
        user.setPrefColumnCount(8);
        CheckBox approval = check("filterNeedsApproval", "needs approval");
        CheckBox update = check("filterUpdateAvailable", "update available");
        CheckBox expiring = check("filterKeyExpiring", "key expires in 7 days");
        CheckBox exitNode = check("filterExitNode", "exit node");
        CheckBox router = check("filterSubnetRouter", "subnet router");
        Runnable apply = () -> model.filters().set(new MachineFilters(os.getEditor().getText(), tag.getText(),
                user.getText(), approval.isSelected(), update.isSelected(), expiring.isSelected(),
                exitNode.isSelected(), router.isSelected()));
        os.setOnAction(event -> apply.run());
        os.getEditor().setOnAction(event -> apply.run());
        os.valueProperty().addListener((observable, was, now) -> apply.run());
        tag.setOnAction(event -> apply.run());
        user.setOnAction(event -> apply.run());
        tag.focusedProperty().addListener((observable, was, focused) -> {
            if (!focused) {
                apply.run();
            }
        });
        user.focusedProperty().addListener((observable, was, focused) -> {
            if (!focused) {
                apply.run();
            }
        });
        for (CheckBox box : List.of(approval, update, expiring, exitNode, router)) {
            box.setOnAction(event -> apply.run());
        }
        clearFilters = () -> {
            os.setValue("");
            os.getEditor().setText("");
            tag.setText("");
            user.setText("");
            List.of(approval, update, expiring, exitNode, router).forEach(box -> box.setSelected(false));
            apply.run();
        };
        javafx.scene.layout.FlowPane bar = new javafx.scene.layout.FlowPane(8, 6, os, tag, user, approval, update,
                expiring, exitNode, router);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        return bar;
    }

    private static CheckBox check(String id, String text) {
        CheckBox box = new CheckBox(text);
        box.setId(id);
        return box;
    }

    /** Selects again the picked machines that a new list of rows dropped from the selection; forgets those gone. */
    private void restorePicks() {
        restoringPicks = true;
        try {
            java.util.Set<String> present = new java.util.HashSet<>();
            for (int row = 0; row < table.getItems().size(); row++) {
                String id = table.getItems().get(row).id();
                present.add(id);
                if (picked.contains(id) && !table.getSelectionModel().isSelected(row)) {
                    table.getSelectionModel().select(row);
                }
            }
            picked.retainAll(present);
            NodeView node = model.selected().get();
            if (node != null && table.getSelectionModel().getSelectedItem() == null) {
                table.getSelectionModel().select(node);
            }
        } finally {
            restoringPicks = false;
        }
    }

    /** Actions on every selected machine, one request each (Ctrl+click, Shift+click, Ctrl+A select several). */
    private javafx.scene.layout.FlowPane bulkBar() {
        Label count = new Label();
        count.setId("bulkCount");
        javafx.collections.ObservableList<NodeView> chosen = table.getSelectionModel().getSelectedItems();
        count.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> chosen.size() + " selected:", chosen));
        TextField tags = Controls.field("bulkTags", "tags to add or remove");
        tags.setPrefColumnCount(10);
        List<javafx.scene.Node> parts = new ArrayList<>(List.of(count));
        for (BulkAction action : BulkAction.values()) {
            Button button = new Button(action.label());
            button.setId("bulk-" + action.wire());
            button.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            button.disableProperty().bind(javafx.beans.binding.Bindings.isEmpty(chosen));
            if (action == BulkAction.DELETE) {
                button.getStyleClass().add("danger");
            }
            button.setOnAction(event -> bulk(action, tags.getText()));
            if (action == BulkAction.ADD_TAGS) {
                parts.add(tags);
            }
            parts.add(button);
        }
        javafx.scene.layout.FlowPane bar = new javafx.scene.layout.FlowPane(8, 6);
        bar.getChildren().addAll(parts);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        return bar;
    }

    private void bulk(BulkAction action, String tagsText) {
        List<NodeView> machines = List.copyOf(table.getSelectionModel().getSelectedItems());
        if (action.destructive() && !machines.isEmpty()) {
            List<String> tags = Controls.words(tagsText.replace(',', ' '));
            if (action.takesTags() && tags.isEmpty()) {
                model.bulk(action, machines, tagsText);
                return;
            }
            confirm(action.question(machines.stream().map(NodeView::name).toList(), tags),
                    () -> model.bulk(action, machines, tagsText));
        } else {
            model.bulk(action, machines, tagsText);
        }
    }

    private static TableColumn<NodeView, Instant> time(String title, Function<NodeView, Instant> value,
            String none) {
        TableColumn<NodeView, Instant> column = new TableColumn<>(title);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        column.setComparator(java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder()));
        column.setCellFactory(ignored -> new TableCell<>() {
            @Override
            protected void updateItem(Instant instant, boolean empty) {
                super.updateItem(instant, empty);
                setText(empty ? null : instant == null ? none : TIME.format(instant));
            }
        });
        column.setPrefWidth(150);
        return column;
    }

    private static TableColumn<NodeView, String> text(String title, Function<NodeView, String> value) {
        TableColumn<NodeView, String> column = new TableColumn<>(title);
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
        return column;
    }

    /** Last seen: "now" while online (and sorted as the latest), else the end of its last stream, or never. */
    private static TableColumn<NodeView, NodeView> lastSeen() {
        TableColumn<NodeView, NodeView> column = new TableColumn<>("Last seen");
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        column.setComparator(java.util.Comparator.comparing(MachinesScreen::seen,
                java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())));
        column.setCellFactory(ignored -> new TableCell<>() {
            @Override
            protected void updateItem(NodeView node, boolean empty) {
                super.updateItem(node, empty);
                setText(empty || node == null ? null : lastSeenText(node));
            }
        });
        return column;
    }

    private static Instant seen(NodeView node) {
        return node.online() ? Instant.MAX : node.lastSeen();
    }

    private static String lastSeenText(NodeView node) {
        return node.online() ? "now" : node.lastSeen() == null ? "never" : TIME.format(node.lastSeen());
    }

    private void showDetail(NodeView node) {
        detail.getChildren().clear();
        if (node == null) {
            shownNode = null;
            detail.getChildren().add(new Label("Select a machine to see it and act on it."));
            return;
        }
        Label title = new Label(node.name());
        title.getStyleClass().add("title");
        GridPane facts = new GridPane();
        facts.setHgap(8);
        facts.setVgap(4);
        int row = 0;
        for (String[] fact : List.of(
                new String[] {"Host name", node.hostname()},
                new String[] {"Owner", MachinesViewModel.owner(node)},
                new String[] {"Addresses", MachinesViewModel.addresses(node)},
                new String[] {"Last seen", lastSeenText(node)},
                new String[] {"OS", MachineFacts.os(node)},
                new String[] {"Client", MachineFacts.clientVersion(node)},
                new String[] {"Connection", MachineFacts.connection(node)},
                new String[] {"Home relay", MachineFacts.homeRelay(node)},
                new String[] {"Endpoints", MachineFacts.endpoints(node)},
                new String[] {"Created", node.createdAt() == null ? "" : TIME.format(node.createdAt())},
                new String[] {"Key expiry", node.keyExpiry() == null ? "never" : TIME.format(node.keyExpiry())},
                new String[] {"Status", MachinesViewModel.status(node)},
                new String[] {"Node key", node.nodeKey()})) {
            Label name = new Label(fact[0]);
            name.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            Label value = new Label(fact[1]);
            value.setWrapText(true);
            facts.addRow(row++, name, value);
        }
        facts.getChildren().getLast().setId("detailStatus");

        TextField name = new TextField(typed(nameField, node.name(), shownNode == null ? null : shownNode.name(), node));
        name.setId("renameField");
        Button rename = new Button("Rename");
        rename.setId("rename");
        rename.setOnAction(event -> model.rename(name.getText()));
        name.setOnAction(event -> model.rename(name.getText()));
        TextField tags = new TextField(typed(tagsField, String.join(", ", node.tags()),
                shownNode == null ? null : String.join(", ", shownNode.tags()), node));
        tags.setId("tagsField");
        tags.setPromptText("tag:server, tag:web");
        Button setTags = new Button("Set tags");
        setTags.setId("setTags");
        setTags.setOnAction(event -> model.setTags(tags.getText()));

        Button approve = new Button("Approve machine (Ctrl+Shift+A)");
        approve.setId("approveMachine");
        approve.setDisable(node.authorized());
        approve.setOnAction(event -> model.approve());
        Button expire = new Button("Expire key");
        expire.setId("expireMachine");
        expire.setOnAction(event -> confirm("Expire the key of " + node.name() + "? It must log in again.",
                model::expire));
        Button delete = new Button("Delete");
        delete.setId("deleteMachine");
        delete.getStyleClass().add("danger");
        delete.setOnAction(event -> confirm("Delete " + node.name() + "? It must join again to come back.",
                model::delete));
        Button suspend = new Button(node.suspended() ? "Resume" : "Suspend");
        suspend.setId("suspendMachine");
        suspend.setOnAction(event -> {
            if (node.suspended()) {
                model.unsuspend();
            } else {
                confirm("Suspend " + node.name() + "? It stays listed but reaches and is reached by no one.",
                        model::suspend);
            }
        });
        CheckBox neverExpires = new CheckBox("Key never expires");
        neverExpires.setId("keyNeverExpires");
        neverExpires.setSelected(node.keyExpiry() == null);
        neverExpires.setOnAction(event -> model.setKeyExpiryDisabled(neverExpires.isSelected()));

        boolean offersExit = node.routes() != null && (node.routes().available().contains("0.0.0.0/0")
                || node.routes().available().contains("::/0") || node.routes().globalExitNode());
        CheckBox globalExit = new CheckBox("Global exit node, priority");
        globalExit.setId("globalExitNode");
        globalExit.setSelected(node.routes() != null && node.routes().globalExitNode());
        TextField priority = new TextField(node.routes() == null ? "0" : Integer.toString(node.routes().exitNodePriority()));
        priority.setId("exitNodePriority");
        priority.setPrefColumnCount(4);
        Button saveExit = new Button("Save exit node mark");
        saveExit.setId("saveExitNode");
        saveExit.setOnAction(event -> model.markGlobalExitNode(globalExit.isSelected(), priority.getText()));
        HBox exit = new HBox(8, globalExit, priority, saveExit);
        exit.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        javafx.scene.Node exitPart = offersExit ? exit : new Label("This machine offers no exit route.");

        VBox routes = new VBox(4);
        List<CheckBox> boxes = new ArrayList<>();
        List<String> all = new ArrayList<>(node.routes().approved());
        node.routes().available().stream().filter(route -> !all.contains(route)).forEach(all::add);
        for (String route : all) {
            CheckBox box = new CheckBox(route + (node.routes().available().contains(route) ? "" : " (not advertised)"));
            box.setUserData(route);
            box.setSelected(node.routes().approved().contains(route));
            boxes.add(box);
            routes.getChildren().add(box);
        }
        if (all.isEmpty()) {
            routes.getChildren().add(new Label("No routes advertised."));
        }
        Button approveRoutes = new Button("Approve waiting routes");
        approveRoutes.setId("approveRoutes");
        approveRoutes.setDisable(MachinesViewModel.waitingRoutes(node).isEmpty());
        approveRoutes.setOnAction(event -> model.approveWaitingRoutes());
        Button saveRoutes = new Button("Save ticked routes");
        saveRoutes.setId("saveRoutes");
        saveRoutes.setDisable(all.isEmpty());
        saveRoutes.setOnAction(event -> model.setApprovedRoutes(boxes.stream().filter(CheckBox::isSelected)
                .map(box -> (String) box.getUserData()).toList()));

        detail.getChildren().addAll(title, facts,
                section("Name"), new HBox(8, name, rename),
                section("Tags"), new HBox(8, tags, setTags),
                section("Access"), buttons(approve, expire, suspend, delete), neverExpires,
                section("Routes"), routes, buttons(approveRoutes, saveRoutes),
                section("Exit node"), exitPart,
                section("Peers (what its map carries)"), peers,
                section("Packet filter (who may reach it)"), packetFilter);
        HBox.setHgrow(name, Priority.ALWAYS);
        HBox.setHgrow(tags, Priority.ALWAYS);
        shownNode = node;
        nameField = name;
        tagsField = tags;
    }

    /** The field's text for {@code node}: what the user typed over the same machine's old value, else the value. */
    private String typed(TextField field, String value, String oldValue, NodeView node) {
        boolean sameMachine = shownNode != null && shownNode.id().equals(node.id());
        return sameMachine && field != null && !field.getText().equals(oldValue) ? field.getText() : value;
    }

    /** Buttons that wrap onto another line in a narrow pane rather than being cut ("Expir..."). */
    private static javafx.scene.layout.FlowPane buttons(Button... buttons) {
        for (Button button : buttons) {
            button.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        return new javafx.scene.layout.FlowPane(8, 8, buttons);
    }

    private static Label section(String text) {
        Label label = new Label(text);
        label.getStyleClass().add("section");
        return label;
    }

    private void confirm(String question, Runnable action) {
        Controls.confirm(root, question, action);
    }

    @Override
    public java.util.Map<javafx.scene.input.KeyCombination, Runnable> shortcuts() {
        return java.util.Map.of(javafx.scene.input.KeyCombination.keyCombination("Shortcut+F"), filter::requestFocus,
                javafx.scene.input.KeyCombination.keyCombination("Shortcut+Shift+A"), model::approve);
    }

    @Override
    public String title() {
        return "Machines";
    }

    @Override
    public Parent root() {
        return root;
    }

    @Override
    public void refresh() {
        model.refresh();
    }

    /** Shows the machine {@code id}: the filters are cleared first, so that it is listed. */
    @Override
    public void show(String id) {
        model.filter().set("");
        clearFilters.run();
        Controls.selectWhenListed(table, node -> node.id().equals(id));
    }

    @Override
    public void changed(Change change) {
        model.changed(change);
    }
}
