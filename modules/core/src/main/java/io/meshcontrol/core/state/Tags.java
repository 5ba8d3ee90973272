package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/** Tag syntax: {@code tag:} and a name of letters, digits and dashes, starting with a letter. */
final class Tags {

    private static final Pattern TAG = Pattern.compile("tag:[A-Za-z][A-Za-z0-9-]*");

    private Tags() {
    }

    static List<String> requireValid(List<String> tags) {
        if (tags == null) {
            return List.of();
        }
        for (String tag : tags) {
            if (!TAG.matcher(tag).matches()) {
                throw MeshException.invalid("invalid tag \"" + tag + "\": a tag is tag:<name>, the name made of letters, "
                        + "digits and dashes and starting with a letter");
            }
        }
        return List.copyOf(new LinkedHashSet<>(tags));
    }
}
