package io.meshcontrol.api;

import java.util.List;
import java.util.Map;

/**
 * {@code PUT /api/v1/service/{name}}: creates or replaces a service; its addresses are the server's to assign.
 *
 * @param ports {@code tcp:<port>}, {@code udp:<port>} (or a range {@code <low>-<high>}), or {@code do-not-validate}
 * @param tags the tags of the machines that host it
 * @param annotations kept as given
 */
public record ServiceRequest(String comment, List<String> ports, List<String> tags, Map<String, String> annotations) {
}
