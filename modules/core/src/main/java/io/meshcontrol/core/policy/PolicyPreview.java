package io.meshcontrol.core.policy;

import java.util.List;

/**
 * The {@code acls} rules that apply to one user (as a source) or to one {@code ip:port} (as a destination): the
 * vendor's ACL preview. Rules are reported as written, sources and destinations each as their text.
 *
 * @param matches the matching rules, in policy order
 */
public record PolicyPreview(List<Match> matches) {

    /** One matching rule: its {@code src} and its {@code dst} entries ({@code alias:ports}). */
    public record Match(List<String> users, List<String> ports) {
    }

    public PolicyPreview {
        matches = List.copyOf(matches);
    }
}
