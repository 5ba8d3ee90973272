package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The {@code nodeAttrs} section. */
final class NodeAttrParser {

    private static final List<IpBlock> RESERVED = List.of(IpBlock.parse("100.100.100.0/24"),
            TailnetRanges.CGNAT_RESERVED);

    private final References refs;

    NodeAttrParser(References refs) {
        this.refs = refs;
    }

    List<NodeAttr> attrs(List<JsonNode> entries) {
        List<NodeAttr> attrs = new ArrayList<>();
        for (JsonNode entry : entries) {
            List<Alias> target = new ArrayList<>();
            for (String text : PolicyParser.strings(entry.path("target"), "target")) {
                target.add(target(text));
            }
            List<String> ipPool = PolicyParser.strings(entry.path("ipPool"), "ipPool");
            ipPool.forEach(NodeAttrParser::checkPool);
            attrs.add(new NodeAttr(target, PolicyParser.strings(entry.path("attr"), "attr"),
                    RuleParser.app(entry.path("app"), false), ipPool));
        }
        return List.copyOf(attrs);
    }

    private Alias target(String text) {
        Alias alias = Alias.parse(text);
        refs.missing(alias).ifPresent(reason -> {
            throw new PolicyException(reason);
        });
        if (alias instanceof Alias.Auto(AutoGroup group) && (group == AutoGroup.SELF || group == AutoGroup.INTERNET
                || group == AutoGroup.NONROOT || group == AutoGroup.DANGER_ALL)) {
            throw new PolicyException("nodeAttrs target \"" + text + "\" is not valid");
        }
        return alias;
    }

    private static void checkPool(String text) {
        IpBlock pool;
        try {
            pool = IpBlock.parse(text);
        } catch (RuntimeException e) {
            throw new PolicyException("IPPool(" + text + "): invalid prefix");
        }
        if (RESERVED.stream().anyMatch(pool::overlaps)) {
            throw new PolicyException("IPPool(" + text + "): network within reserved range");
        }
        if (!TailnetRanges.CGNAT.contains(pool)) {
            throw new PolicyException("IPPool(" + text + "): network must be within 100.64.0.0/10");
        }
    }
}
