package io.meshcontrol.gui.policy;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PolicyCheck;
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

    /**
     * Checks the policy (its tests run) and saves it only when the check passes: a failing test blocks the save, and
     * says so, before anything is sent to be saved.
     */
    public void save() {
        String saving = text.get();
        String readWith = etag;
        background.run("Checking and saving the policy", () -> {
            PolicyCheck checked;
            try {
                checked = client.checkPolicy(saving);
            } catch (ApiException e) {
                throw new CheckFailed(e);
            }
            return new Saved(checked, client.setPolicy(saving, readWith));
        }, saved -> {
            savedText = saved.policy().value().policy();
            etag = saved.policy().etag();
            modified.set(!text.get().equals(savedText));
            errors.clear();
            int tests = saved.check().tests() + saved.check().sshTests();
            background.tell("Policy saved" + (tests == 0 ? "" : " (" + tests + (tests == 1 ? " test" : " tests")
                    + " passed first)"));
        }, failure -> refused(saving, failure));
    }

    private record Saved(PolicyCheck check, Tagged<PolicyDocument> policy) {
    }

    /** The check before a save refused the policy: nothing was sent to be saved. */
    private static final class CheckFailed extends RuntimeException {

        private final ApiException problem;

        CheckFailed(ApiException problem) {
            super(problem.getMessage(), problem);
            this.problem = problem;
        }
    }

    private void refused(String sent, Throwable failure) {
        errors.clear();
        if (failure instanceof CheckFailed check) {
            refused(sent, check.problem);
            background.tell("The policy was not saved: its check failed (" + (check.problem.getMessage().contains(
                    "test") ? "a test of the policy failed" : "see the errors under the editor") + ")");
            return;
        }
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
