package io.meshcontrol.server.v2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Request bodies of {@code /api/v2}, field for field what the vendor's clients send, and the request schemas of
 * {@code /api/v2/openapi.json}. They are read strictly (an unknown field is refused) unless marked
 * {@code @JsonIgnoreProperties(ignoreUnknown = true)}.
 */
final class Bodies {

    private Bodies() {
    }

    record Authorized(Boolean authorized) {
    }

    record Name(String name) {
    }

    record Tags(List<String> tags) {
    }

    record Ipv4(String ipv4) {
    }

    record Key(Boolean keyExpiryDisabled) {
    }

    record Routes(List<String> routes) {
    }

    /** @param expiry the Go client sends its zero time when there is none */
    record Attribute(Object value, Instant expiry, String comment) {
    }

    record Nameservers(List<String> dns) {
    }

    record Preferences(@JsonProperty("magicDNS") Boolean magicDns) {
    }

    record SearchPaths(List<String> searchPaths) {
    }

    record Resolver(String address, Boolean useWithExitNode) {
    }

    record DnsPreferences(@JsonProperty("overrideLocalDNS") Boolean overrideLocalDns,
            @JsonProperty("magicDNS") Boolean magicDns) {
    }

    /** Every field may be left out, meaning empty or false (the Go client leaves out zero values). */
    record DnsConfiguration(List<Resolver> nameservers, @JsonProperty("splitDNS") Map<String, List<Resolver>> splitDns,
            List<String> searchPaths, DnsPreferences preferences) {
    }

    /** Null or absent: unchanged. */
    record TailnetSettings(Boolean aclsExternallyManagedOn, String aclsExternalLink, Boolean devicesApprovalOn,
            Boolean devicesAutoUpdatesOn, Integer devicesKeyDurationDays, Boolean usersApprovalOn,
            String usersRoleAllowedToJoinExternalTailnets, Boolean networkFlowLoggingOn, Boolean regionalRoutingOn,
            Boolean postureIdentityCollectionOn, Boolean httpsEnabled) {
    }

    record Service(String name, List<String> addrs, String comment, Map<String, String> annotations,
            List<String> ports, List<String> tags) {
    }

    record PostureIntegration(String provider, String cloudId, String clientId, String tenantId,
            String clientSecret) {
    }

    /** The vendor's SetLogstreamConfigurationRequest; the object-storage fields are taken only to be refused. */
    record LogStream(String destinationType, String url, String user, String token, Integer uploadPeriodMinutes,
            String compressionFormat, String s3Bucket, String s3Region, String s3KeyPrefix,
            String s3AuthenticationType, String s3AccessKeyId, String s3SecretAccessKey, String s3RoleArn,
            String s3ExternalId, String awsExternalId, String gcsBucket, String gcsKeyPrefix, List<String> gcsScopes,
            String gcsCredentials) {
    }

    /**
     * The vendor's CreateKeyRequest and SetKey body: what it takes depends on {@code keyType}, so {@link KeyRoutes}
     * reads it as a tree and names the field it refuses; this record is its shape in the document. Other fields
     * (the vendor's Go client sends a whole Key to SetKey) are ignored.
     *
     * @param customClaimRules claim name to pattern (names are the identity's, so a map)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record KeyRequest(String keyType, String description, Long expirySeconds, KeyCapabilities capabilities,
            List<String> scopes, List<String> tags, String issuer, String audience, String subject,
            Map<String, String> customClaimRules) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record KeyCapabilities(KeyDevices devices) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record KeyDevices(KeyCreate create) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record KeyCreate(Boolean reusable, Boolean ephemeral, Boolean preauthorized, List<String> tags) {
    }
}
