package io.meshcontrol.core.policy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the policy defines, for checking that every alias in a rule names something that exists. */
record References(Map<String, List<String>> groups, Map<String, List<String>> tagOwners, Map<String, String> hosts) {

    /** Why the alias names nothing ({@code tag not found: "tag:x"}), or empty when it is fine. */
    Optional<String> missing(Alias alias) {
        return switch (alias) {
            case Alias.Group group when !groups.containsKey(group.name()) ->
                    Optional.of("group not found: \"" + group.name() + "\"");
            case Alias.Tag tag when !tagOwners.containsKey(tag.name()) ->
                    Optional.of("tag not found: \"" + tag.name() + "\"");
            case Alias.Host host when !hosts.containsKey(host.name()) ->
                    Optional.of("host not found: \"" + host.name() + "\"");
            default -> Optional.empty();
        };
    }

    /** Classifies and checks an alias of a rule side: {@code src=tag not found: "tag:x"}. */
    Alias source(String text) {
        Alias alias = parse(text, "src=");
        missing(alias).ifPresent(reason -> {
            throw new PolicyException("src=" + reason, text.strip());
        });
        return alias;
    }

    /** As {@link #source}, for a destination: {@code dst="tag:x": tag not found: "tag:x"}. */
    Alias destination(String text) {
        Alias alias = parse(text, "dst=\"" + text.strip() + "\": ");
        missing(alias).ifPresent(reason -> {
            throw new PolicyException("dst=\"" + text.strip() + "\": " + reason, text.strip());
        });
        return alias;
    }

    /** Surrounding white space is ignored, as the vendor does. */
    private static Alias parse(String text, String where) {
        try {
            return Alias.parse(text.strip());
        } catch (PolicyException e) {
            throw new PolicyException(where + e.getMessage(), text.strip());
        }
    }
}
