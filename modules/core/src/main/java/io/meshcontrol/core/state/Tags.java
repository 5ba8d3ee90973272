package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.policy.Policy;
import java.util.LinkedHashSet;
import java.util.List;

/** Tag syntax: {@code tag:} and a name of letters, digits and dashes, starting with a letter. */
final class Tags {

    private Tags() {
    }

    static List<String> requireValid(List<String> tags) {
        if (tags == null) {
            return List.of();
        }
        Limits.count("tags", tags, Limits.TAGS);
        for (int i = 0; i < tags.size(); i++) {
            String tag = Limits.text("tags[" + i + "]", tags.get(i), Limits.TAG);
            if (!Policy.TAG.matcher(tag).matches()) {
                throw MeshException.invalid("invalid tag \"" + tag + "\": a tag is tag:<name>, the name made of letters, "
                        + "digits and dashes and starting with a letter");
            }
        }
        return List.copyOf(new LinkedHashSet<>(tags));
    }
}
