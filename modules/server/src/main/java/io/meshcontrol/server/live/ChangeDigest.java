package io.meshcontrol.server.live;

import java.util.List;

/**
 * What changed in one interval, as a caller may learn it: which machines and users to read again, whether the policy
 * or what every map carries changed, and which administrative areas saw a change (the part of an audit action before
 * its first dot: {@code webhook}, {@code apikey}, ...). It names things, never their contents: a reader reads those
 * through the API, where its permissions apply.
 *
 * @param nodes ids (decimal strings, as the API writes them) of machines that changed or went, that the caller may read
 * @param users ids (decimal strings) of users that changed or went, when the caller may read users
 * @param policy the policy in force changed, when the caller may read it
 * @param context DNS, the relay map, services or apps as maps carry them changed
 * @param areas the administrative areas with a committed change, in the order of their first change
 */
public record ChangeDigest(List<String> nodes, List<String> users, boolean policy, boolean context, List<String> areas) {

    public ChangeDigest {
        nodes = List.copyOf(nodes);
        users = List.copyOf(users);
        areas = List.copyOf(areas);
    }

    public boolean isEmpty() {
        return nodes.isEmpty() && users.isEmpty() && !policy && !context && areas.isEmpty();
    }
}
