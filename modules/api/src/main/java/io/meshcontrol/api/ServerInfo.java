package io.meshcontrol.api;

/**
 * {@code GET /api/v1/server}.
 *
 * @param tailnetId the network ID, generated at first start and never changed
 * @param serverUrl the URL clients use ({@code server_url})
 * @param baseDomain the MagicDNS base domain, empty when none
 * @param newPreAuthKey what a new pre-auth key is unless its maker says otherwise (the console's form starts there)
 */
public record ServerInfo(String version, String tailnetId, String serverUrl, String baseDomain,
        NewPreAuthKeyDefaults newPreAuthKey) {
}
