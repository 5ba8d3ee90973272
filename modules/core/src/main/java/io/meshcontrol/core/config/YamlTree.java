package io.meshcontrol.core.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLAnchorReplayingFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * The text of {@code config.yaml} as a tree, with YAML's anchors and aliases resolved: {@code *name} reads as the
 * value {@code &name} marks (Jackson's plain YAML reader gives the alias's name as a string instead). Two things
 * valid YAML can say are refused, each with the key and line:
 * <ul>
 *   <li>merge keys ({@code <<: *defaults}): YAML 1.2 dropped them, and merging them without the rule that the
 *       mapping's own keys win would either lose a value or report a key twice;</li>
 *   <li>aliases that expand to more than {@value #MAX_ALIAS_VALUES} values in all: a few lines of aliases of
 *       aliases (the "billion laughs") would otherwise make a tree of billions of values.</li>
 * </ul>
 */
final class YamlTree {

    /** How many tokens aliases may add to the file as written; a real configuration needs a few hundred at most. */
    static final int MAX_ALIAS_VALUES = 10_000;

    // A key written twice is almost always an editing mistake; silently taking the last one would hide it.
    private static final YAMLMapper AS_WRITTEN = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final YAMLMapper RESOLVING = YAMLMapper.builder(new YAMLAnchorReplayingFactory())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Valid YAML that this reader does not take; the message names the key and the line. */
    static final class RefusedException extends RuntimeException {
        RefusedException(String message) {
            super(message);
        }
    }

    private YamlTree() {
    }

    /**
     * @return the document's tree; null or a missing node for a file with no content
     * @throws JacksonException  when the text is not YAML
     * @throws RefusedException  for merge keys and for aliases that expand too far
     */
    static JsonNode read(String yaml) {
        AsWritten written = readAsWritten(yaml);
        try (JsonParser parser = RESOLVING.createParser(yaml)) {
            int tokens = 0;
            try {
                while (parser.nextToken() != null) {
                    if (++tokens > written.tokens() + MAX_ALIAS_VALUES) {
                        throw aliasBomb(parser, written);
                    }
                }
            } catch (StreamConstraintsException e) {
                throw aliasBomb(parser, written); // the replaying parser's own cap on one alias: the same story
            }
        }
        return RESOLVING.readTree(yaml);
    }

    /**
     * The text as written, aliases unexpanded: how many tokens, and where each alias is ({@code derp.urls[1]} to its
     * line), to name the alias that expands too far.
     */
    private record AsWritten(int tokens, Map<String, Integer> aliasLines) {
    }

    /** Reads the text as written, refusing the first merge key. */
    private static AsWritten readAsWritten(String yaml) {
        int tokens = 0;
        Map<String, Integer> aliasLines = new HashMap<>();
        try (JsonParser parser = AS_WRITTEN.createParser(yaml)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                tokens++;
                int line = parser.currentTokenLocation().getLineNr();
                if (token == JsonToken.PROPERTY_NAME && parser.currentName().equals("<<")) {
                    String mapping = String.join("", path(parser.streamReadContext().getParent()));
                    throw new RefusedException((mapping.isEmpty() ? "" : "key " + mapping + " at ") + "line " + line
                            + ": merge keys (<<) are not supported; write the keys out, or use an alias for the"
                            + " whole value");
                }
                if (((YAMLParser) parser).isCurrentAlias()) {
                    aliasLines.put(String.join("", path(parser.streamReadContext())), line);
                }
            }
        }
        return new AsWritten(tokens, aliasLines);
    }

    /** Names the alias as written whose expansion the parser is in when the limit is reached. */
    private static RefusedException aliasBomb(JsonParser parser, AsWritten written) {
        List<String> expanded = path(parser.streamReadContext());
        String where = "key " + String.join("", expanded);
        for (int length = 1; length <= expanded.size(); length++) {
            String key = String.join("", expanded.subList(0, length));
            if (written.aliasLines().containsKey(key)) {
                where = "key " + key + " at line " + written.aliasLines().get(key);
                break;
            }
        }
        return new RefusedException(where + ": the aliases in this file expand to more than " + MAX_ALIAS_VALUES
                + " values; write the values out instead of nesting aliases");
    }

    /** The key path of a context as parts that join to {@code derp.urls[1]}; empty at the top level. */
    private static List<String> path(TokenStreamContext context) {
        List<String> parts = new ArrayList<>();
        for (TokenStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                parts.addFirst("[" + Math.max(c.getCurrentIndex(), 0) + "]");
            } else if (c.currentName() != null) {
                parts.addFirst((c.getParent() == null || c.getParent().inRoot() ? "" : ".") + c.currentName());
            }
        }
        return parts;
    }
}
