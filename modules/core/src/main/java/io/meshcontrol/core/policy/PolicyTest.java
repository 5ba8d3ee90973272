package io.meshcontrol.core.policy;

import java.util.List;

/**
 * One {@code tests} entry: traffic from {@code src} must be accepted to every {@code accept} destination
 * ({@code host:port}) and dropped to every {@code deny} one.
 *
 * @param proto protocol name or number; empty means TCP
 */
public record PolicyTest(String src, String proto, List<String> accept, List<String> deny) {

    public PolicyTest {
        accept = List.copyOf(accept);
        deny = List.copyOf(deny);
    }
}
