package io.meshcontrol.api;

import java.util.List;
import java.util.Map;

/**
 * A service ({@code svc:<name>}) with the addresses the server gave it.
 *
 * @param addresses IPv4 first, then IPv6
 */
public record ServiceView(String name, List<String> addresses, String comment, List<String> ports, List<String> tags,
        Map<String, String> annotations) {
}
