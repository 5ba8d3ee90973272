package io.meshcontrol.core.wire;

import java.util.List;

/**
 * A list whose elements come with their JSON written already (the map codec's peers, encoded once and shared by every
 * map session): immutable, so the records keep it as it is rather than copy it, which would lose the encoding. Its
 * own serializer decides how it is written; the JSON is the same as the plain list's.
 */
public interface PreEncodedList<T> extends List<T> {
}
