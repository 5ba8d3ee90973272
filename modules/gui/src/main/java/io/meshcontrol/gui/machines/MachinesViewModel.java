package io.meshcontrol.gui.machines;

import io.meshcontrol.api.FilterRuleView;
import io.meshcontrol.api.GlobalExitNodeRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PacketFilterView;
import io.meshcontrol.api.PeerView;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.RoutesView;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Change;
import io.meshcontrol.gui.screen.Failures;
import io.meshcontrol.gui.screen.NewestRead;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The machines screen: every node, read again in the background whenever the server's event stream says machines
 * changed (online state, last seen and waiting routes change by themselves), a filter over it, the selected machine
 * with its peers and packet filter, and what can be done to it.
 */
public final class MachinesViewModel {

    private final MeshClient client;
    private final Background background;
    private final ObservableList<NodeView> nodes = FXCollections.observableArrayList();
    private final FilteredList<NodeView> shown = new FilteredList<>(nodes);
    private final StringProperty filter = new SimpleStringProperty("");
    private final ObjectProperty<MachineFilters> filters = new SimpleObjectProperty<>(MachineFilters.NONE);
    private final ObjectProperty<NodeView> selected = new SimpleObjectProperty<>();
    private final ObservableList<PeerView> peers = FXCollections.observableArrayList();
    private final ObservableList<String> packetFilter = FXCollections.observableArrayList();
    /** Reads of the selected machine's access overlap when changes come quickly: the newest one's answer is shown. */
    private final NewestRead accessRead = new NewestRead();
    private boolean polling;
    private boolean pollAgain;
    private boolean replacing;

    public MachinesViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
        filter.addListener((observable, was, text) -> shown.setPredicate(node -> matches(node, text)));
        filters.addListener((observable, was, now) -> poll());
        selected.addListener((observable, was, node) -> {
            if (node == null) {
                accessRead.start(); // a read still under way is for a machine no longer selected
                peers.clear();
                packetFilter.clear();
            } else if (was == null || !was.id().equals(node.id())) {
                readAccess(node);
            }
        });
    }

    /** The server said something changed (its event stream): machines are read again when they may have. */
    public void changed(Change change) {
        if (change.machines()) {
            poll();
            NodeView node = selected.get();
            if (node != null && (change.all() || change.policy() || change.context() || !change.nodes().isEmpty())) {
                readAccess(node);
            }
        }
    }

    /** The machine's peers and packet filter, as its map carries them now. */
    private void readAccess(NodeView node) {
        NewestRead.Read read = accessRead.start();
        background.quietly(() -> new Access(client.nodePeers(node.id()), client.nodePacketFilter(node.id())),
                read.ifNewest(access -> {
                    peers.setAll(access.peers());
                    packetFilter.setAll(access.filter().rules().stream().map(MachinesViewModel::rule).toList());
                }), read.ifNewest(failure -> packetFilter.setAll("Not readable: " + Failures.describe(failure))));
    }

    private record Access(List<PeerView> peers, PacketFilterView filter) {
    }

    /** A filter rule in one line: who, to what, how. */
    static String rule(FilterRuleView rule) {
        String to = rule.destinations() == null ? "" : rule.destinations().stream()
                .map(destination -> destination.address() + (destination.ports() == null ? "" : ":" + destination.ports()))
                .collect(java.util.stream.Collectors.joining(" "));
        String protocols = rule.protocols() == null || rule.protocols().isEmpty() ? ""
                : " (" + String.join(", ", rule.protocols()) + ")";
        String capabilities = rule.capabilities() == null || rule.capabilities().isEmpty() ? ""
                : " capabilities " + String.join(", ", rule.capabilities());
        return String.join(" ", rule.sources()) + " → " + to + protocols + capabilities;
    }

    /** Reads the list now, with the progress indicator (F5). */
    public void refresh() {
        background.run("Reading the machines", this::read, this::replace);
    }

    /** The machines the filters pick (the server filters); all of them without a filter. */
    private List<NodeView> read() {
        java.util.Map<String, String> query = filters.get().query();
        return query.isEmpty() ? client.nodes() : client.nodes(query).nodes();
    }

    /**
     * Does {@code action} to {@code machines} with one request ({@code POST /api/v1/node/bulk}), all or nothing; the
     * list is read again after it.
     *
     * @param tagsText the tags for adding or removing, as typed (commas or spaces)
     */
    public void bulk(BulkAction action, List<NodeView> machines, String tagsText) {
        if (machines.isEmpty()) {
            background.tell("Select machines first (Ctrl+click or Shift+click for several)");
            return;
        }
        List<String> tags = tagsText == null ? List.of()
                : Arrays.stream(tagsText.split("[,\\s]+")).filter(tag -> !tag.isEmpty()).toList();
        if (action.takesTags() && tags.isEmpty()) {
            background.tell(action.label() + ": type the tags first (tag:server, tag:web)");
            return;
        }
        List<String> ids = machines.stream().map(NodeView::id).toList();
        String title = action.label() + ": " + BulkAction.count(ids.size());
        background.run(title, () -> {
            io.meshcontrol.api.BulkResult result = client.bulkNodes(
                    new io.meshcontrol.api.BulkRequest(action.wire(), ids, action.takesTags() ? tags : null));
            return new Bulked(result, read());
        }, bulked -> {
            replace(bulked.list());
            int unchanged = bulked.result().unchanged() == null ? 0 : bulked.result().unchanged().size();
            background.tell(title + ": done" + (unchanged == 0 ? "" : " (" + unchanged + " already so)"));
        });
    }

    private record Bulked(io.meshcontrol.api.BulkResult result, List<NodeView> list) {
    }

    private void poll() {
        if (polling) {
            pollAgain = true; // a change during a read: read once more after it
            return;
        }
        polling = true;
        background.quietly(this::read, list -> {
            polling = false;
            replace(list);
            if (pollAgain) {
                pollAgain = false;
                poll();
            }
        }, failure -> polling = false);
    }

    /**
     * Puts a new list in place, keeping the selected machine selected (its new state). The same machines in the same
     * order are updated in place, only those that changed, so that a poll does not redraw the table under the user's
     * mouse.
     */
    private void replace(List<NodeView> list) {
        String selectedId = selected.get() == null ? null : selected.get().id();
        boolean sameMachines = nodes.size() == list.size() && java.util.stream.IntStream.range(0, list.size())
                .allMatch(i -> nodes.get(i).id().equals(list.get(i).id()));
        replacing = true;
        try {
            if (sameMachines) {
                for (int i = 0; i < list.size(); i++) {
                    if (changed(nodes.get(i), list.get(i))) {
                        nodes.set(i, list.get(i));
                    }
                }
            } else {
                nodes.setAll(list);
            }
            selected.set(list.stream().filter(node -> node.id().equals(selectedId)).findFirst().orElse(null));
        } finally {
            replacing = false;
        }
    }

    /**
     * Whether the rows are being replaced by a new list: a table's selection changes then because its rows did, not
     * because the user picked others.
     */
    public boolean replacing() {
        return replacing;
    }

    /**
     * Whether a machine changed in what the window shows: an online machine's last seen is the time of each answer,
     * which the window shows as "now" rather than as a change every poll.
     */
    private static boolean changed(NodeView before, NodeView after) {
        if (before.online() && after.online()) {
            return !before.equals(new NodeView(after.id(), after.stableId(), after.name(), after.hostname(),
                    after.user(), after.tags(), after.ipv4(), after.ipv6(), after.machineKey(), after.nodeKey(),
                    after.authorized(), after.ephemeral(), after.expired(), after.registerMethod(), after.createdAt(),
                    after.online(), before.lastSeen(), after.keyExpiry(), after.routes(), after.suspended(),
                    after.location(), after.client()));
        }
        return !before.equals(after);
    }

    private void updated(NodeView node) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).id().equals(node.id())) {
                nodes.set(i, node);
            }
        }
        selected.set(node);
    }

    public void rename(String name) {
        act("Renaming", node -> client.renameNode(node.id(), name.strip()));
    }

    /** Tags as typed: separated by commas or spaces; none clears them. */
    public void setTags(String text) {
        List<String> tags = Arrays.stream(text.split("[,\\s]+")).filter(tag -> !tag.isEmpty()).toList();
        act("Setting tags", node -> client.tagNode(node.id(), tags));
    }

    public void approve() {
        act("Approving", node -> client.approveNode(node.id()));
    }

    public void expire() {
        act("Expiring the key of", node -> client.expireNode(node.id()));
    }

    public void suspend() {
        act("Suspending", node -> client.suspendNode(node.id()));
    }

    public void unsuspend() {
        act("Resuming", node -> client.unsuspendNode(node.id()));
    }

    /** {@code true}: the machine's key never expires; {@code false}: it expires as the server's settings say. */
    public void setKeyExpiryDisabled(boolean disabled) {
        act(disabled ? "Turning key expiry off for" : "Turning key expiry on for",
                node -> client.setKeyExpiryDisabled(node.id(), disabled));
    }

    /** Marks the machine as a global exit node with {@code priority} (text; empty is 0), or clears the mark. */
    public void markGlobalExitNode(boolean marked, String priority) {
        Integer value;
        try {
            value = marked ? (priority == null || priority.isBlank() ? 0 : Integer.valueOf(priority.strip())) : null;
        } catch (NumberFormatException e) {
            background.tell("The exit node priority is a whole number (higher is preferred)");
            return;
        }
        act(marked ? "Marking as global exit node" : "Clearing the global exit node mark of", node -> {
            client.setGlobalExitNode(node.id(), new GlobalExitNodeRequest(marked, value));
            return client.node(node.id());
        });
    }

    public void delete() {
        NodeView node = selected.get();
        if (node == null) {
            return;
        }
        background.run("Deleting " + node.name(), () -> {
            client.deleteNode(node.id());
            return read();
        }, list -> {
            replace(list);
            background.tell("Deleted " + node.name());
        });
    }

    /** Approves every route the machine advertises and has not been allowed yet. */
    public void approveWaitingRoutes() {
        act("Approving the routes of", node -> {
            Set<String> routes = new LinkedHashSet<>(node.routes().approved());
            routes.addAll(node.routes().available());
            client.setNodeRoutes(node.id(), new ArrayList<>(routes));
            return client.node(node.id());
        });
    }

    /** Replaces the approved routes with {@code routes} (unticking one withdraws it). */
    public void setApprovedRoutes(List<String> routes) {
        act("Setting the routes of", node -> {
            client.setNodeRoutes(node.id(), routes);
            return client.node(node.id());
        });
    }

    private interface Action {
        NodeView on(NodeView node) throws Exception;
    }

    private void act(String what, Action action) {
        NodeView node = selected.get();
        if (node == null) {
            background.tell("Select a machine first");
            return;
        }
        String title = what + " " + node.name();
        Callable<NodeView> work = () -> action.on(node);
        background.run(title, work, changed -> {
            updated(changed);
            background.tell(title + ": done");
        });
    }

    /** Routes advertised but not approved: what waits for an administrator. */
    public static List<String> waitingRoutes(NodeView node) {
        RoutesView routes = node.routes();
        if (routes == null) {
            return List.of();
        }
        return routes.available().stream().filter(route -> !routes.approved().contains(route)).toList();
    }

    /** What needs attention, in a few words ("needs approval, 1 route waiting"); "ok" when nothing does. */
    public static String status(NodeView node) {
        List<String> words = new ArrayList<>();
        if (!node.authorized()) {
            words.add("needs approval");
        }
        if (node.expired()) {
            words.add("key expired");
        }
        if (node.suspended()) {
            words.add("suspended");
        }
        int waiting = waitingRoutes(node).size();
        if (waiting > 0) {
            words.add(waiting + (waiting == 1 ? " route waiting" : " routes waiting"));
        }
        return words.isEmpty() ? "ok" : String.join(", ", words);
    }

    /** Owner: the user, or the tags of a tagged machine. */
    public static String owner(NodeView node) {
        return node.tags() != null && !node.tags().isEmpty() && node.user() == null ? String.join(" ", node.tags())
                : node.user() == null ? "" : node.user();
    }

    public static String addresses(NodeView node) {
        return Stream.of(node.ipv4(), node.ipv6()).filter(address -> address != null).reduce((a, b) -> a + "  " + b)
                .orElse("");
    }

    /** The filter matches names, owner, tags, addresses, routes and status words, ignoring case. */
    static boolean matches(NodeView node, String text) {
        if (text == null || text.isBlank()) {
            return true;
        }
        String haystack = String.join(" ", node.name(), node.hostname(), owner(node), String.join(" ", node.tags()),
                addresses(node), String.join(" ", node.routes() == null ? List.of() : node.routes().available()),
                status(node), node.online() ? "online" : "offline").toLowerCase(Locale.ROOT);
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("\\s+")).allMatch(haystack::contains);
    }

    public ObservableList<NodeView> shown() {
        return shown;
    }

    /** The server-side filters (OS, tag, user, needs approval...). */
    public ObjectProperty<MachineFilters> filters() {
        return filters;
    }

    public StringProperty filter() {
        return filter;
    }

    public ObservableList<PeerView> peers() {
        return peers;
    }

    public ObservableList<String> packetFilter() {
        return packetFilter;
    }

    public ObjectProperty<NodeView> selected() {
        return selected;
    }
}
