package io.meshcontrol.core.wire;

import io.meshcontrol.core.BoundedMemo;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Writes a filter rule's {@code SrcIPs}, keeping the JSON of long lists for the next filter that has them. Under
 * {@code autogroup:self} every machine of a user gets a rule with the user's machines as sources in a filter of its
 * own (its own addresses as destinations), so one policy change wrote each user's list once per machine: 10,000
 * times at N = 10,000 (15% of the change's samples in a profile; about 8 µs a machine measured alone). The lists
 * are immutable ({@link FilterRule} copies them), so an equal list has the same JSON.
 */
final class SourceListJson extends StdSerializer<List<String>> {

    /** Shorter lists are written as they come: looking one up would cost about as much. */
    static final int SHORTEST_KEPT = 16;
    /** Lists kept at most; the store is emptied when full (each policy compilation makes new ones). */
    static final int MOST_KEPT = 4096;
    private static final int RECENT_SLOTS = 256;

    private static final BoundedMemo<List<String>, SerializedString> KEPT = new BoundedMemo<>(MOST_KEPT);

    /**
     * The lists written last, by identity (a slot per identity hash, the newest list wins it). The machines of a user
     * share one list instance, the compiled rule's, and looking such a list up in {@link #KEPT} hashed and compared
     * its hundred strings each time: as much as writing them (16% of a policy change's samples under
     * {@code autogroup:self} at N = 10,000). Holds at most {@value #RECENT_SLOTS} lists.
     */
    private static final AtomicReferenceArray<Written> RECENT = new AtomicReferenceArray<>(RECENT_SLOTS);

    private record Written(List<String> sources, SerializedString json) {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    SourceListJson() {
        super((Class) List.class);
    }

    @Override
    public void serialize(List<String> sources, JsonGenerator gen, SerializationContext ctxt) {
        // Not into a tree being built, which would keep the text as one opaque value, nor pretty-printed output,
        // which would have the list compact inside it
        if (sources.size() < SHORTEST_KEPT || !WireJson.writesText(gen) || gen.getPrettyPrinter() != null) {
            writeArray(sources, gen);
            return;
        }
        gen.writeRawValue(json(sources));
    }

    /** The JSON of a long list, from the recent or the kept lists when it was written before. */
    static SerializedString json(List<String> sources) {
        int slot = System.identityHashCode(sources) & (RECENT_SLOTS - 1);
        Written recent = RECENT.get(slot);
        if (recent != null && recent.sources() == sources) {
            return recent.json();
        }
        SerializedString json = KEPT.get(sources, list -> new SerializedString(WireJson.writeString(list)));
        RECENT.set(slot, new Written(sources, json));
        return json;
    }

    private static void writeArray(List<String> sources, JsonGenerator gen) {
        gen.writeStartArray(sources, sources.size());
        for (String source : sources) {
            gen.writeString(source);
        }
        gen.writeEndArray();
    }

    /** How many lists are kept (for tests). */
    static int kept() {
        return KEPT.size();
    }
}
