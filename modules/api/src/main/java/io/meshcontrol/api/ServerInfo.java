package io.meshcontrol.api;

/**
 * {@code GET /api/v1/server}.
 *
 * @param tailnetId the network ID, generated at first start and never changed
 * @param serverUrl the URL clients use ({@code server_url})
 * @param baseDomain the MagicDNS base domain, empty when none
 */
public record ServerInfo(String version, String tailnetId, String serverUrl, String baseDomain) {
}
