package io.meshcontrol.gui.policy;

import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.beans.property.StringProperty;
import javafx.scene.Node;
import org.fxmisc.flowless.VirtualizedScrollPane;
import org.fxmisc.richtext.CodeArea;
import org.fxmisc.richtext.LineNumberFactory;
import org.fxmisc.richtext.model.StyleSpans;
import org.fxmisc.richtext.model.StyleSpansBuilder;

/**
 * The policy's text in RichTextFX's {@link CodeArea}: line numbers, HuJSON coloured (keys, strings, numbers,
 * {@code true}/{@code false}/{@code null}, comments: style classes in app.css, colours per theme), the lines of
 * errors marked, and the caret put at an error's line and column.
 */
final class PolicyEditor {

    private static final Pattern TOKENS = Pattern.compile(
            "(?<comment>//[^\\n]*|/\\*(?s:.*?)\\*/)"
                    + "|(?<key>\"(?:\\\\.|[^\"\\\\\\n])*\"(?=\\s*:))"
                    + "|(?<string>\"(?:\\\\.|[^\"\\\\\\n])*\")"
                    + "|(?<literal>\\b(?:true|false|null)\\b)"
                    + "|(?<number>-?\\b\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b)");
    private static final List<String> KINDS = List.of("comment", "key", "string", "literal", "number");

    private final CodeArea area = new CodeArea();
    private final VirtualizedScrollPane<CodeArea> pane = new VirtualizedScrollPane<>(area);
    private boolean updating;

    /** @param text the model's text, kept equal to the editor's both ways */
    PolicyEditor(StringProperty text) {
        area.setId("policyEditor");
        area.getStyleClass().add("policy-editor");
        area.setParagraphGraphicFactory(LineNumberFactory.get(area));
        area.textProperty().addListener((observable, was, now) -> {
            area.setStyleSpans(0, highlighting(now));
            if (!updating) {
                updating = true;
                text.set(now);
                updating = false;
            }
        });
        text.addListener((observable, was, now) -> {
            if (!updating && !area.getText().equals(now)) {
                updating = true;
                area.replaceText(now == null ? "" : now);
                updating = false;
            }
        });
        if (text.get() != null) {
            area.replaceText(text.get());
        }
    }

    /** Style classes for each stretch of the text: what kind of HuJSON token it is. */
    static StyleSpans<Collection<String>> highlighting(String text) {
        Matcher matcher = TOKENS.matcher(text);
        StyleSpansBuilder<Collection<String>> spans = new StyleSpansBuilder<>();
        int last = 0;
        while (matcher.find()) {
            String kind = KINDS.stream().filter(name -> matcher.group(name) != null).findFirst().orElseThrow();
            spans.add(List.of(), matcher.start() - last);
            spans.add(List.of("hujson-" + kind), matcher.end() - matcher.start());
            last = matcher.end();
        }
        spans.add(List.of(), text.length() - last);
        return spans.create();
    }

    /** Marks the lines of {@code errors} (and only those) and puts the caret at the first one's place. */
    void mark(List<PolicyError> errors) {
        for (int paragraph = 0; paragraph < area.getParagraphs().size(); paragraph++) {
            if (!area.getParagraph(paragraph).getParagraphStyle().isEmpty()) {
                area.setParagraphStyle(paragraph, List.of());
            }
        }
        for (PolicyError error : errors) {
            if (error.line() > 0 && error.line() <= area.getParagraphs().size()) {
                area.setParagraphStyle(error.line() - 1, List.of("error-line"));
            }
        }
        errors.stream().filter(error -> error.line() > 0).findFirst().ifPresent(this::show);
    }

    /** Selects the error's line from its column (the whole line without one) and scrolls to it. */
    void show(PolicyError error) {
        int paragraph = error.line() - 1;
        if (paragraph < 0 || paragraph >= area.getParagraphs().size()) {
            return;
        }
        int length = area.getParagraphLength(paragraph);
        int from = error.column() > 0 ? Math.min(error.column() - 1, length) : 0;
        area.selectRange(paragraph, from, paragraph, length);
        area.requestFollowCaret();
        area.requestFocus();
    }

    CodeArea area() {
        return area;
    }

    Node node() {
        return pane;
    }
}
