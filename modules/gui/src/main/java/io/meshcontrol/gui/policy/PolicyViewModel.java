package io.meshcontrol.gui.policy;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PolicyDocument;
import io.meshcontrol.api.Tagged;
import io.meshcontrol.gui.screen.Background;
import io.meshcontrol.gui.screen.Failures;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The policy editor: the text as read with its ETag, the edits, and the validation errors placed at their lines.
 * Saving sends the ETag it was read with, so a policy changed by someone else meanwhile is not overwritten.
 */
public final class PolicyViewModel {

    private final MeshClient client;
    private final Background background;
    private final StringProperty text = new SimpleStringProperty("");
    private final BooleanProperty modified = new SimpleBooleanProperty(false);
    private final ObservableList<PolicyError> errors = FXCollections.observableArrayList();
    private String savedText = "";
    private String etag;

    public PolicyViewModel(MeshClient client, Background background) {
        this.client = client;
        this.background = background;
        text.addListener((observable, was, now) -> modified.set(!now.equals(savedText)));
    }

    /** Reads the policy; edits not saved are kept unless {@code discard}. */
    public void load(boolean discard) {
        if (modified.get() && !discard) {
            return;
        }
        background.run("Reading the policy", client::taggedPolicy, this::loaded);
    }

    private void loaded(Tagged<PolicyDocument> policy) {
        savedText = policy.value().policy();
        etag = policy.etag();
        text.set(savedText);
        modified.set(false);
        errors.clear();
    }

    /** Validates (the policy's tests included) without saving. */
    public void check() {
        String checked = text.get();
        background.run("Checking the policy", () -> client.checkPolicy(checked), result -> {
            errors.clear();
            background.tell("The policy is valid (" + result.tests() + " tests and " + result.sshTests()
                    + " SSH tests passed)");
        }, failure -> refused(checked, failure));
    }

    public void save() {
        String saving = text.get();
        background.run("Saving the policy", () -> client.setPolicy(saving, etag), saved -> {
            savedText = saved.value().policy();
            etag = saved.etag();
            modified.set(!text.get().equals(savedText));
            errors.clear();
            background.tell("Policy saved");
        }, failure -> refused(saving, failure));
    }

    private void refused(String sent, Throwable failure) {
        errors.clear();
        if (failure instanceof ApiException api && api.status() == 412) {
            errors.add(new PolicyError(0, "Someone saved another policy since you opened it: copy your changes,"
                    + " then Reload (Ctrl+Shift+R) to see theirs."));
        } else if (failure instanceof ApiException api && api.status() == 400) {
            errors.add(PolicyError.locate(sent, api.getMessage()));
        } else {
            errors.add(new PolicyError(0, Failures.describe(failure)));
        }
        background.tell("The policy was not saved: see the errors under the editor");
    }

    public StringProperty text() {
        return text;
    }

    public BooleanProperty modified() {
        return modified;
    }

    public ObservableList<PolicyError> errors() {
        return errors;
    }
}
