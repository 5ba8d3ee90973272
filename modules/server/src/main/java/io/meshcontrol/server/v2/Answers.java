package io.meshcontrol.server.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Answer bodies of {@code /api/v2}, field for field the vendor's Go client types (interop/gov2 decodes every one
 * strictly into them) and the schemas of {@code /api/v2/openapi.json} ({@link V2OpenApi} reads these records).
 *
 * <p>One convention says when a field is sent, for Jackson and the document alike: a plain field is always sent and
 * never null; {@code @JsonInclude(NON_NULL)} marks one sent only when it has a value (the vendor leaves it out);
 * {@code @JsonInclude(ALWAYS)} one always sent, as null when it has no value. A {@code Map} field is a map whose
 * keys are data (regions, domains, attribute names), never a shape left untyped.
 */
final class Answers {

    private Answers() {
    }

    /** {@code {}}: what the vendor answers to a delete and to other operations with nothing to report. */
    @JsonInclude(Include.NON_NULL)
    record Empty() {
        static final Empty INSTANCE = new Empty();
    }

    /** The vendor's error shape; {@code errorId} only on a server failure, naming the log entry. */
    record Error(String message, @JsonInclude(Include.NON_NULL) String errorId) {
    }

    record Devices(List<Device> devices) {
    }

    /**
     * The vendor's Device. The fields after {@code tailnetLockError} are sent with {@code fields=all} only;
     * {@code lastSeen} while the device is not connected, {@code expires} while its key expires.
     */
    record Device(List<String> addresses, String id, String nodeId, String user, String name, String hostname,
            String clientVersion, boolean updateAvailable, String os, Instant created, boolean connectedToControl,
            @JsonInclude(Include.NON_NULL) Instant lastSeen, boolean keyExpiryDisabled,
            @JsonInclude(Include.NON_NULL) Instant expires, boolean authorized,
            @JsonProperty("isExternal") boolean isExternal, @JsonProperty("isEphemeral") boolean isEphemeral,
            String machineKey, String nodeKey, boolean blocksIncomingConnections, List<String> tags,
            String tailnetLockKey, String tailnetLockError,
            @JsonInclude(Include.NON_NULL) List<String> enabledRoutes,
            @JsonInclude(Include.NON_NULL) List<String> advertisedRoutes,
            @JsonInclude(Include.NON_NULL) ClientConnectivity clientConnectivity,
            @JsonInclude(Include.NON_NULL) Boolean sshEnabled,
            @JsonInclude(Include.NON_NULL) PostureIdentity postureIdentity,
            @JsonInclude(Include.NON_NULL) Distro distro) {
    }

    /** @param latency by relay region id (data, so a map) */
    record ClientConnectivity(List<String> endpoints, String derp, boolean mappingVariesByDestIP,
            Map<String, Latency> latency, ClientSupports clientSupports) {
    }

    record Latency(@JsonInclude(Include.NON_NULL) Boolean preferred, double latencyMs) {
    }

    record ClientSupports(boolean hairPinning, boolean ipv6, boolean pcp, boolean pmp, boolean udp, boolean upnp) {
    }

    record PostureIdentity(List<String> serialNumbers, boolean disabled) {
    }

    record Distro(String name, String version, String codeName) {
    }

    record DeviceRoutes(List<String> advertisedRoutes, List<String> enabledRoutes) {
    }

    /**
     * A device's custom posture attributes.
     *
     * @param attributes by attribute name (data); a value is a string, a number or a boolean, as it was set
     * @param expiries by attribute name, for the attributes that expire
     */
    record Attributes(Map<String, Object> attributes, Map<String, Instant> expiries) {
    }

    record Keys(List<Key> keys) {
    }

    /**
     * The vendor's Key: an auth key ({@code keyType} auth: {@code expires}, {@code expirySeconds},
     * {@code capabilities}, {@code userId} when a user owns it), an OAuth client ({@code client}: {@code updated},
     * {@code scopes}, {@code tags}) or a federated identity ({@code federated}: those and the trust fields).
     * {@code key} is the secret, in the answer that made it only.
     *
     * @param customClaimRules claim name to pattern (names are the identity's, so a map)
     */
    record Key(String id, @JsonInclude(Include.NON_NULL) String key, String keyType,
            @JsonInclude(Include.ALWAYS) String description, String created,
            @JsonInclude(Include.NON_NULL) String expires, @JsonInclude(Include.NON_NULL) Long expirySeconds,
            @JsonInclude(Include.NON_NULL) String updated, @JsonInclude(Include.NON_NULL) String revoked,
            boolean invalid, @JsonInclude(Include.NON_NULL) KeyCapabilities capabilities,
            @JsonInclude(Include.NON_NULL) List<String> scopes, @JsonInclude(Include.NON_NULL) List<String> tags,
            @JsonInclude(Include.NON_NULL) String userId, @JsonInclude(Include.NON_NULL) String issuer,
            @JsonInclude(Include.NON_NULL) String audience, @JsonInclude(Include.NON_NULL) String subject,
            @JsonInclude(Include.NON_NULL) Map<String, String> customClaimRules) {
    }

    record KeyCapabilities(KeyDeviceCapabilities devices) {
    }

    record KeyDeviceCapabilities(KeyDeviceCreateCapabilities create) {
    }

    record KeyDeviceCreateCapabilities(boolean reusable, boolean ephemeral, boolean preauthorized,
            List<String> tags) {
    }

    record Nameservers(List<String> dns) {
    }

    record MagicDns(@JsonProperty("magicDNS") boolean magicDns) {
    }

    record SearchPaths(List<String> searchPaths) {
    }

    /** @param splitDns by domain (data) */
    record DnsConfiguration(List<Resolver> nameservers, @JsonProperty("splitDNS") Map<String, List<Resolver>> splitDns,
            List<String> searchPaths, DnsPreferences preferences) {
    }

    record Resolver(String address, boolean useWithExitNode) {
    }

    record DnsPreferences(@JsonProperty("overrideLocalDNS") boolean overrideLocalDns,
            @JsonProperty("magicDNS") boolean magicDns) {
    }

    /** The policy with {@code details=1}: the HuJSON text (base64 in JSON), no warnings, errors null. */
    record AclDetails(byte[] acl, List<String> warnings, @JsonInclude(Include.ALWAYS) List<String> errors) {
    }

    record AclPreview(List<PreviewMatch> matches, String type, String previewFor) {
    }

    /** @param via only for a grant that routes through {@code via} */
    record PreviewMatch(List<String> users, List<String> ports, int lineNumber,
            @JsonInclude(Include.NON_NULL) List<String> via) {
    }

    /**
     * What checking a policy found: nothing ({@code {}}), why it does not read ({@code message}), or its failing
     * tests ({@code message} "test(s) failed" with {@code data}, one entry per test).
     */
    record PolicyProblems(@JsonInclude(Include.NON_NULL) String message,
            @JsonInclude(Include.NON_NULL) List<TestFailure> data) {
    }

    record TestFailure(String user, List<String> errors) {
    }

    record Users(List<User> users) {
    }

    /** @param lastSeen now while a device is connected, left out when none was ever seen */
    record User(String id, String displayName, String loginName, String profilePicUrl, String tailnetId,
            Instant created, String type, String role, String status, int deviceCount,
            @JsonInclude(Include.NON_NULL) Instant lastSeen, boolean currentlyConnected) {
    }

    record Webhooks(List<Webhook> webhooks) {
    }

    /** @param secret in the answers of create and rotate only */
    record Webhook(String endpointId, String endpointUrl, String providerType, String creatorLoginName,
            Instant created, Instant lastModified, List<String> subscriptions,
            @JsonInclude(Include.NON_NULL) String secret) {
    }

    record VipServices(List<VipService> vipServices) {
    }

    /** @param annotations kept as given: the keys are the client's (the Kubernetes operator's), so a map */
    record VipService(String name, List<String> addrs, String comment, Map<String, String> annotations,
            List<String> ports, List<String> tags) {
    }

    record PostureIntegrations(List<PostureIntegration> integrations) {
    }

    record PostureIntegration(String id, String provider, @JsonInclude(Include.ALWAYS) String cloudId,
            @JsonInclude(Include.ALWAYS) String clientId, @JsonInclude(Include.ALWAYS) String tenantId) {
    }

    /** A log stream as it was set, without its token. */
    record LogStream(String logType, String destinationType, @JsonInclude(Include.ALWAYS) String url,
            @JsonInclude(Include.ALWAYS) String user, int uploadPeriodMinutes,
            @JsonInclude(Include.ALWAYS) String compressionFormat) {
    }

    /** Delivery counters; the vendor's rates and limits are 0 here. */
    record LogStreamStatus(@JsonInclude(Include.ALWAYS) String lastActivity,
            @JsonInclude(Include.ALWAYS) String lastError, int maxBodySize, long numBytesSent, long numEntriesSent,
            int numSpoofedEntries, long numTotalRequests, long numFailedRequests, int rateBytesSent,
            int rateEntriesSent, int rateTotalRequests, int rateFailedRequests) {
    }

    record TailnetSettings(boolean aclsExternallyManagedOn, String aclsExternalLink, boolean devicesApprovalOn,
            boolean devicesAutoUpdatesOn, int devicesKeyDurationDays, boolean usersApprovalOn,
            String usersRoleAllowedToJoinExternalTailnets, boolean networkFlowLoggingOn, boolean regionalRoutingOn,
            boolean postureIdentityCollectionOn, boolean httpsEnabled) {
    }

    /** An OAuth access token (RFC 6749 5.1). */
    record Token(@JsonProperty("access_token") String accessToken, @JsonProperty("token_type") String tokenType,
            @JsonProperty("expires_in") long expiresIn, String scope) {
    }

    /** An OAuth refusal (RFC 6749 5.2) that also carries the vendor's {@code message}. */
    record OAuthError(String error, @JsonProperty("error_description") String errorDescription, String message) {
    }
}
