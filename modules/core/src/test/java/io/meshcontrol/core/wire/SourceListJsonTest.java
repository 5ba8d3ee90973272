package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;

/** A filter rule's long source lists are written from kept JSON, and that JSON is always the list's own. */
class SourceListJsonTest {

    private static final List<NetPortRange> ANY_PORT = List.of(NetPortRange.any("100.64.0.1"));

    private static List<String> sources(int count, String last) {
        List<String> sources = new ArrayList<>(IntStream.range(0, count - 1).mapToObj(i -> "100.64.0." + i).toList());
        sources.add(last);
        return List.copyOf(sources);
    }

    /** What the mapper writes for the list on its own (never kept): the reference. */
    private static String array(List<String> sources) {
        return WireJson.writeString(sources);
    }

    /** As map frames are written: {@link WireJson#write}, UTF-8 bytes. */
    private static String bytes(Object value) {
        return new String(WireJson.write(value), StandardCharsets.UTF_8);
    }

    @Test
    void aLongListIsWrittenAsItsOwnJsonEveryTimeAndKept() {
        List<String> sources = sources(40, "fd7a:115c:a1e0::1");
        String expected = "{\"SrcIPs\":" + array(sources) + ",\"DstPorts\":"
                + WireJson.writeString(ANY_PORT) + "}";
        assertEquals(expected, bytes(FilterRule.allow(sources, ANY_PORT)));
        assertEquals(expected, bytes(FilterRule.allow(List.copyOf(new ArrayList<>(sources)), ANY_PORT)),
                "an equal list in another instance");
        assertEquals(expected, WireJson.writeString(FilterRule.allow(sources, ANY_PORT)), "and as text");
        assertTrue(SourceListJson.kept() > 0);
    }

    @Test
    void listsThatDifferOnlyAtTheEndGetTheirOwnJson() {
        List<String> a = sources(SourceListJson.SHORTEST_KEPT, "100.100.100.1");
        List<String> b = sources(SourceListJson.SHORTEST_KEPT, "100.100.100.2");
        bytes(FilterRule.allow(a, ANY_PORT));
        String written = bytes(FilterRule.allow(b, ANY_PORT));
        assertTrue(written.contains("\"100.100.100.2\"]") && !written.contains("100.100.100.1"), written);
    }

    @Test
    void sourcesThatNeedEscapingAreEscaped() {
        List<String> sources = sources(20, "cap:example.com/cap/\"quoted\"\\n");
        JsonNode rule = WireJson.mapper().readTree(bytes(FilterRule.grant(sources, List.of())));
        assertEquals(sources.getLast(), rule.get("SrcIPs").get(19).asString());
        assertEquals(20, rule.get("SrcIPs").size());
    }

    @Test
    void treesAndPrettyPrintedOutputGetARealArray() {
        List<String> sources = sources(30, "100.64.9.9");
        JsonNode tree = WireJson.mapper().valueToTree(FilterRule.allow(sources, ANY_PORT));
        assertTrue(tree.get("SrcIPs").isArray());
        assertEquals(30, tree.get("SrcIPs").size());
        String pretty = WireJson.mapper().writer().with(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(FilterRule.allow(sources, ANY_PORT));
        assertTrue(pretty.contains("\"SrcIPs\" : [ \"100.64.0.0\", \"100.64.0.1\""), pretty);
    }

    @Test
    void theStoreIsEmptiedWhenFull() {
        for (int i = 0; i <= SourceListJson.MOST_KEPT; i++) {
            bytes(FilterRule.allow(sources(SourceListJson.SHORTEST_KEPT, "10.0." + (i / 250) + "." + (i % 250)),
                    ANY_PORT));
        }
        // full at the last list at the latest, emptied, and the last one kept
        assertTrue(SourceListJson.kept() < SourceListJson.MOST_KEPT, "kept " + SourceListJson.kept());
        assertTrue(SourceListJson.kept() > 0);
    }

    /**
     * The same list instance (the machines of a user share their rule's) is found again without hashing or comparing
     * its strings; an equal list of another instance still gets the same JSON through the kept ones.
     */
    @Test
    void theSameListAgainIsFoundByIdentity() {
        CountingList list = new CountingList(sources(40, "10.9.9.9"));
        String first = SourceListJson.json(list).getValue();
        int looksAfterFirst = list.looks;
        assertTrue(looksAfterFirst > 0, "the first lookup goes through the kept lists");

        assertEquals(first, SourceListJson.json(list).getValue());
        assertEquals(looksAfterFirst, list.looks, "hashed or compared again");
        assertEquals(array(list), first);
        assertEquals(first, SourceListJson.json(sources(40, "10.9.9.9")).getValue());
    }

    /** A list that counts how often it is hashed or compared. */
    private static final class CountingList extends java.util.AbstractList<String> {
        private final List<String> items;
        int looks;

        CountingList(List<String> items) {
            this.items = items;
        }

        @Override
        public String get(int index) {
            return items.get(index);
        }

        @Override
        public int size() {
            return items.size();
        }

        @Override
        public int hashCode() {
            looks++;
            return super.hashCode();
        }

        @Override
        public boolean equals(Object other) {
            looks++;
            return super.equals(other);
        }
    }
}
