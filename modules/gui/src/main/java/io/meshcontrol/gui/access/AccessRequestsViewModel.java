package io.meshcontrol.gui.access;

import io.meshcontrol.api.AccessRequestRequest;
import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Controls;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** Access requests: ask to join a policy group for a while, and approve, deny or revoke the requests. */
public final class AccessRequestsViewModel {

    private final MeshClient client;
    private final Background background;
    private final ObservableList<AccessRequestView> requests = FXCollections.observableArrayList();

    public AccessRequestsViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
    }

    public void refresh() {
        background.run("Reading the access requests", client::accessRequests, requests::setAll);
    }

    /** Read again without the progress indicator (the event stream said requests changed). */
    public void reread() {
        background.quietly(client::accessRequests, requests::setAll, failure -> { });
    }

    /**
     * @param duration as typed ({@code 8h}, {@code 2 days}: {@link io.meshcontrol.api.HumanDuration}); the user is
     *     the credential's own unless one is named
     */
    public void ask(String user, String group, String reason, String duration) {
        String wire;
        try {
            wire = io.meshcontrol.api.HumanDuration.wire(duration);
        } catch (IllegalArgumentException e) {
            background.tell("For how long: " + e.getMessage());
            return;
        }
        AccessRequestRequest request = new AccessRequestRequest(Controls.blankToNull(user), Controls.blankToNull(group),
                Controls.blankToNull(reason), wire);
        background.run("Asking for " + group, () -> client.createAccessRequest(request), created -> {
            refresh(); // first: a new read clears the status bar, which then says what was done
            background.tell("Asked for " + created.group() + " (" + created.state() + ")");
        });
    }

    /** {@code decision}: approve, deny or revoke. */
    public void decide(AccessRequestView request, String decision) {
        background.run(title(decision) + " the request of " + request.user() + " for " + request.group(),
                () -> client.decideAccessRequest(request.id(), decision), decided -> {
                    refresh(); // first: a new read clears the status bar, which then says what was done
                    background.tell("The request of " + decided.user() + " for " + decided.group() + " is "
                            + decided.state());
                });
    }

    private static String title(String decision) {
        return switch (decision) {
            case "approve" -> "Approving";
            case "deny" -> "Denying";
            default -> "Revoking";
        };
    }

    public ObservableList<AccessRequestView> requests() {
        return requests;
    }
}
