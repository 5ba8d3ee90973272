package io.meshcontrol.gui.audit;

import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.api.AuditPage;
import io.meshcontrol.api.AuditQuery;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import java.util.ArrayDeque;
import java.util.Deque;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The audit log, newest first, a page at a time: filtered by actor, action, target and time as the server filters
 * it ({@code GET /api/v1/audit}); Older follows the page's cursor, Newer goes back to the page before.
 */
public final class AuditViewModel {

    static final int PAGE = 50;

    private final MeshClient client;
    private final Background background;
    private final ObservableList<AuditEntryView> entries = FXCollections.observableArrayList();
    private final StringProperty actor = new SimpleStringProperty("");
    private final StringProperty action = new SimpleStringProperty("");
    private final StringProperty target = new SimpleStringProperty("");
    private final StringProperty since = new SimpleStringProperty("");
    private final BooleanProperty hasOlder = new SimpleBooleanProperty(false);
    private final BooleanProperty hasNewer = new SimpleBooleanProperty(false);
    private final StringProperty page = new SimpleStringProperty("");
    // The cursors of the pages shown before this one (null: the newest), and this page's own and next.
    private final Deque<Long> newer = new ArrayDeque<>();
    private Long current;
    private Long next;

    public AuditViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    /** The newest page under the filter (a new filter starts from the newest). */
    public void refresh() {
        newer.clear();
        read(null);
    }

    public void older() {
        if (next != null) {
            newer.push(current == null ? Long.MIN_VALUE : current);
            read(next);
        }
    }

    public void newer() {
        if (!newer.isEmpty()) {
            Long before = newer.pop();
            read(before == Long.MIN_VALUE ? null : before);
        }
    }

    private void read(Long before) {
        AuditQuery query = new AuditQuery(Controls.blankToNull(actor.get()), Controls.blankToNull(action.get()),
                Controls.blankToNull(target.get()), Controls.blankToNull(since.get()), null, before, PAGE);
        background.run("Reading the audit log", () -> client.audit(query), (AuditPage read) -> {
            entries.setAll(read.entries());
            current = before;
            next = read.next();
            hasOlder.set(next != null);
            hasNewer.set(!newer.isEmpty());
            page.set("Page " + (newer.size() + 1) + ", " + read.entries().size() + " entries");
        });
    }

    public ObservableList<AuditEntryView> entries() {
        return entries;
    }

    public StringProperty actor() {
        return actor;
    }

    public StringProperty action() {
        return action;
    }

    public StringProperty target() {
        return target;
    }

    public StringProperty since() {
        return since;
    }

    public BooleanProperty hasOlder() {
        return hasOlder;
    }

    public BooleanProperty hasNewer() {
        return hasNewer;
    }

    public StringProperty page() {
        return page;
    }
}
