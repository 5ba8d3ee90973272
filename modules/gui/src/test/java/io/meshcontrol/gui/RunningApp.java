package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.BuildInfo;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The admin window shown headless (Monocle) for a test, with a TestFX robot to drive it: what a test does goes
 * through the real controls, and what it waits for is read on the JavaFX thread. Shared with the interop tests
 * (gui's test-jar), which drive it against real clients.
 */
public final class RunningApp implements AutoCloseable {

    private static final long WAIT_SECONDS = 30;

    public final FxRobot robot = new FxRobot();
    public final Launch launch;
    private Stage stage;

    private RunningApp(Launch launch) {
        this.launch = launch;
    }

    /** The window over {@code configFolder}, the local server being the one whose credential is at {@code credential}. */
    public static RunningApp start(Path configFolder, Path credential) throws TimeoutException {
        return start(new Launch(BuildInfo.version(), configFolder, credential));
    }

    public static RunningApp start(Launch launch) throws TimeoutException {
        RunningApp app = new RunningApp(launch);
        FxToolkit.registerPrimaryStage();
        app.stage = FxToolkit.setupStage(stage -> new AdminWindow(launch).show(stage));
        return app;
    }

    /** Connects to the server on this machine through its local credential. */
    public RunningApp connectLocally() {
        click("#localServer");
        click("#connect");
        awaitShown("#serverLabel");
        return this;
    }

    /** Clicks a control (an id, {@code #connect}, or its text) once it is drawn inside the window. */
    public void click(String query) {
        for (int attempt = 1; ; attempt++) {
            awaitShown(query);
            await(query + " scrolled into the window", () -> scrolledIntoWindow(query));
            try {
                robot.clickOn(query);
                return;
            } catch (RuntimeException e) {
                // The detail pane is drawn again when the poll brings a new state: the control found may have left
                // the scene, or come back below the window's edge before its scroll pane was laid out again, between
                // the wait above and the robot's own look-up (nothing was clicked then); find it again.
                boolean redrawn = e.getCause() instanceof NullPointerException
                        || e instanceof org.testfx.api.FxRobotException && (e.getMessage().contains("returned no nodes")
                                || e.getMessage().contains("no nodes were visible"));
                if (attempt == 3 || !redrawn) {
                    throw e;
                }
            }
        }
    }

    /**
     * Scrolls the scroll pane holding the control (the machine's detail pane) towards it, and answers whether it is
     * now inside the window, as the robot requires of what it clicks. Polled: a pane drawn again is measured only
     * after its next layout pass, so one scroll may fall short.
     */
    private boolean scrolledIntoWindow(String query) {
        java.util.Optional<Node> found = robot.lookup(query).tryQuery();
        if (found.isEmpty() || found.get().getScene() == null) {
            return false;
        }
        Node node = found.get();
        for (Node parent = node.getParent(); parent != null; parent = parent.getParent()) {
            if (parent instanceof javafx.scene.control.ScrollPane pane && pane.getContent() != null) {
                Node content = pane.getContent();
                double y = content.sceneToLocal(node.localToScene(node.getBoundsInLocal())).getMinY();
                double room = content.getBoundsInLocal().getHeight() - pane.getViewportBounds().getHeight();
                if (room > 0) {
                    pane.setVvalue(Math.max(0, Math.min(1, (y - 20) / room)));
                }
                break;
            }
        }
        javafx.geometry.Bounds bounds = node.localToScene(node.getBoundsInLocal());
        javafx.scene.Scene scene = node.getScene();
        return bounds.intersects(0, 0, scene.getWidth(), scene.getHeight());
    }

    /**
     * Clicks the button {@code text} (OK, Cancel) of the dialog shown; looked up in the dialog only, since the main
     * window has a Cancel of its own (hidden while no call runs).
     */
    public void answerDialog(String text) {
        await("a dialog with " + text, () -> dialogButton(text).isPresent());
        robot.clickOn(onFx(() -> dialogButton(text).orElseThrow()));
    }

    private java.util.Optional<Node> dialogButton(String text) {
        return robot.from(robot.lookup(".dialog-pane").queryAll()).lookup(".button")
                .lookup((Node button) -> button.isVisible() && text.equals(((Labeled) button).getText())).tryQuery();
    }

    /** Clicks the cell of the table {@code table} (an id) that reads {@code text}, once the table draws it. */
    public void clickCell(String table, String text) {
        await(text + " drawn in " + table, () -> cell(table, text).isPresent());
        robot.clickOn(onFx(() -> cell(table, text).orElseThrow()));
    }

    /**
     * Clicks the rows of {@code table} showing {@code texts} (the first plainly, the others with Ctrl held) until the
     * table has exactly those selected. A click can be lost on a loaded machine, and the live updates replace a table's
     * rows under the mouse; a user then clicks again, and so does this.
     */
    public void selectRows(String table, String... texts) {
        for (int attempt = 1; ; attempt++) {
            clickCell(table, texts[0]);
            if (texts.length > 1) {
                robot.press(javafx.scene.input.KeyCode.CONTROL);
                try {
                    for (int i = 1; i < texts.length; i++) {
                        clickCell(table, texts[i]);
                    }
                } finally {
                    robot.release(javafx.scene.input.KeyCode.CONTROL);
                }
            }
            try {
                WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> onFx(() -> selectedExactly(table, texts)));
                return;
            } catch (TimeoutException e) {
                if (attempt == 3) {
                    throw new AssertionError("the rows of " + String.join(", ", texts) + " in " + table
                            + " never got selected", e);
                }
            }
        }
    }

    /** Whether the table's selection is one row per text, each drawn in a selected row. */
    private boolean selectedExactly(String table, String... texts) {
        int selected = robot.lookup(table).queryAs(javafx.scene.control.TableView.class).getSelectionModel()
                .getSelectedIndices().size();
        return selected == texts.length && java.util.Arrays.stream(texts).allMatch(text -> cell(table, text,
                shown -> shown.getTableRow() != null && shown.getTableRow().isSelected()).isPresent());
    }

    private java.util.Optional<Node> cell(String table, String text) {
        return cell(table, text, shown -> true);
    }

    /** A cell of {@code table} that reads {@code text} and meets {@code also}. */
    private java.util.Optional<Node> cell(String table, String text,
            java.util.function.Predicate<javafx.scene.control.TableCell<?, ?>> also) {
        return robot.from(robot.lookup(table).queryAll()).lookup(".table-cell").lookup((Node cell) -> {
            javafx.scene.control.TableCell<?, ?> shown = (javafx.scene.control.TableCell<?, ?>) cell;
            return text.equals(shown.getText()) && also.test(shown);
        }).tryQuery();
    }

    /** Fills a text field as a user would: focus, select all, type. */
    public void type(String query, String text) {
        click(query);
        robot.interact(() -> robot.lookup(query).queryAs(TextInputControl.class).clear());
        robot.write(text);
    }

    /** Sets a text field's content at once (long texts, where typing key by key adds nothing). */
    public void setText(String query, String text) {
        robot.interact(() -> {
            Node node = robot.lookup(query).query();
            if (node instanceof org.fxmisc.richtext.GenericStyledArea<?, ?, ?> area) {
                area.replaceText(text);
            } else {
                ((TextInputControl) node).setText(text);
            }
        });
    }

    public String text(String query) {
        return onFx(() -> {
            Node node = robot.lookup(query).query();
            return switch (node) {
                case Labeled labeled -> labeled.getText();
                case org.fxmisc.richtext.GenericStyledArea<?, ?, ?> area -> area.getText();
                default -> ((TextInputControl) node).getText();
            };
        });
    }

    public void awaitShown(String query) {
        await(query + " shown", () -> robot.lookup(query).tryQuery().filter(Node::isVisible)
                .filter(node -> node.getScene() != null).isPresent());
    }

    /** Waits until {@code condition}, read on the JavaFX thread, holds; fails the test with {@code what} if it never does. */
    public void await(String what, Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(WAIT_SECONDS, TimeUnit.SECONDS, () -> onFx(condition));
        } catch (TimeoutException e) {
            throw new AssertionError("never happened: " + what + statusBar(), e);
        }
    }

    /** The status bar's last outcome, which usually says why what a test waits for did not happen. */
    private String statusBar() {
        try {
            return robot.lookup("#statusMessage").tryQuery().map(node -> " (status bar: \""
                    + ((Labeled) node).getText() + "\")").orElse("");
        } catch (RuntimeException e) {
            return "";
        }
    }

    public <T> T onFx(Callable<T> work) {
        try {
            return WaitForAsyncUtils.asyncFx(work).get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    /** Writes the window as it looks now to {@code target/screenshots/<name>.png}. */
    public Path screenshot(String name) {
        // The picture shows the outcome, not a call still under way.
        await("no call under way", () -> robot.lookup("#progress").tryQuery().map(node -> !node.isVisible()).orElse(true));
        WritableImage image = onFx(() -> stage.getScene().snapshot(null));
        int width = (int) image.getWidth();
        int height = (int) image.getHeight();
        BufferedImage picture = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                picture.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        Path file = Path.of("target", "screenshots", name + ".png");
        try {
            Files.createDirectories(file.getParent());
            ImageIO.write(picture, "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertTrue(sizeOf(file) > 0, file + " is empty");
        return file;
    }

    @Override
    public void close() throws TimeoutException {
        FxToolkit.cleanupStages();
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
