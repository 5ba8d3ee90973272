package io.meshcontrol.gui.screen;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * Runs every call to the server off the JavaFX thread, one {@link Task} each, and hands the result back on it. What
 * runs is visible ({@link #busy()}, {@link #activity()}: the window's progress indicator) and can be cancelled; the
 * last outcome is one line ({@link #message()}). Used from the JavaFX thread only.
 */
public final class Background implements AutoCloseable {

    private final ExecutorService executor = Executors.newCachedThreadPool(work -> {
        Thread thread = new Thread(work, "svc-admin-call");
        thread.setDaemon(true);
        return thread;
    });
    private final ObservableList<Task<?>> shown = FXCollections.observableArrayList();
    private final BooleanBinding busy = Bindings.isNotEmpty(shown);
    private final ReadOnlyStringWrapper activity = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper failure = new ReadOnlyStringWrapper("");

    /**
     * Runs {@code work} in the background with the progress indicator on; {@code done} gets its result, a failure
     * becomes {@link #failure()}.
     *
     * @param what what the user sees while it runs ("Saving the policy")
     */
    public <T> Task<T> run(String what, Callable<T> work, Consumer<T> done) {
        return run(what, work, done, error -> failure.set(what + ": " + Failures.describe(error)));
    }

    /** As {@link #run(String, Callable, Consumer)}, the failure handed to {@code failed} instead. */
    public <T> Task<T> run(String what, Callable<T> work, Consumer<T> done, Consumer<Throwable> failed) {
        Task<T> task = task(work, done, failed);
        shown.add(task);
        activity.set(what + "…");
        // The status bar tells of the last action only: a new one clears the outcome of the one before.
        failure.set("");
        message.set("");
        task.runningProperty().addListener((observable, was, running) -> {
            if (!running) {
                shown.remove(task);
                activity.set(shown.isEmpty() ? "" : activity.get());
            }
        });
        submit(task);
        return task;
    }

    /** A call the user did not ask for (the machines poll): no progress indicator, failures to {@code failed}. */
    public <T> Task<T> quietly(Callable<T> work, Consumer<T> done, Consumer<Throwable> failed) {
        Task<T> task = task(work, done, failed);
        submit(task);
        return task;
    }

    /** Starts {@code task}; once the window closed, no call starts (a late event of a closing screen asks for one). */
    private void submit(Task<?> task) {
        if (!executor.isShutdown()) {
            executor.execute(task);
        }
    }

    private static <T> Task<T> task(Callable<T> work, Consumer<T> done, Consumer<Throwable> failed) {
        Task<T> task = new Task<>() {
            @Override
            protected T call() throws Exception {
                return work.call();
            }
        };
        task.setOnSucceeded(event -> done.accept(task.getValue()));
        task.setOnFailed(event -> failed.accept(task.getException()));
        return task;
    }

    /** Cancels every call the progress indicator shows (Escape, the Cancel button). */
    public void cancelAll() {
        if (!shown.isEmpty()) {
            java.util.List.copyOf(shown).forEach(task -> task.cancel(true));
            message.set("Cancelled");
        }
    }

    /** Says how a user action went, in the status bar. */
    public void tell(String text) {
        failure.set("");
        message.set(text);
    }

    /** Forgets the last outcome (another server: what was said of the last one no longer applies). */
    public void clear() {
        failure.set("");
        message.set("");
    }

    public BooleanBinding busy() {
        return busy;
    }

    public ReadOnlyStringProperty activity() {
        return activity.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty message() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty failure() {
        return failure.getReadOnlyProperty();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
