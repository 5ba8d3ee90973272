package io.meshcontrol.core.state;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.PostureAttribute;
import io.meshcontrol.core.model.PostureIntegration;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.PostureStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;

/**
 * Device posture: integrations with the providers the network may consult (stored, one per provider), and the
 * custom attributes set on nodes.
 */
public final class Posture {

    public static final String INTEGRATIONS_WRITE_SCOPE = "feature_settings";
    public static final String INTEGRATIONS_READ_SCOPE = "feature_settings:read";
    public static final String ATTRIBUTES_WRITE_SCOPE = "devices:posture_attributes";
    public static final String ATTRIBUTES_READ_SCOPE = "devices:posture_attributes:read";

    /** The providers this server takes. */
    public static final List<String> PROVIDERS = List.of("falcon", "intune", "jamfpro", "kandji", "kolide", "sentinelone");
    /** Providers the vendor has that this server refuses by name. */
    public static final List<String> REFUSED_PROVIDERS = List.of("fleet", "huntress");
    private static final Pattern CUSTOM = Pattern.compile("custom:[A-Za-z0-9_]{1,50}");

    /** A change of an integration; null fields keep their value. */
    public record IntegrationChange(String cloudId, String clientId, String tenantId, String clientSecret) {
    }

    private final Jdbi jdbi;
    private final Writer writer;
    private final PostureStore store;
    private final NodeStore nodes;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();

    Posture(Jdbi jdbi, Writer writer, PostureStore store, NodeStore nodes, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.store = store;
        this.nodes = nodes;
        this.clock = clock;
    }

    public List<PostureIntegration> integrations(Caller caller) {
        caller.require(INTEGRATIONS_READ_SCOPE);
        return jdbi.withHandle(store::integrations);
    }

    public PostureIntegration integration(Caller caller, String id) {
        caller.require(INTEGRATIONS_READ_SCOPE);
        return jdbi.withHandle(h -> store.integration(h, id)).orElseThrow(() -> unknownIntegration(id));
    }

    public PostureIntegration createIntegration(Caller caller, String provider, IntegrationChange settings) {
        caller.require(INTEGRATIONS_WRITE_SCOPE);
        if (REFUSED_PROVIDERS.contains(provider)) {
            throw MeshException.invalid("posture integration provider \"" + provider
                    + "\" is not supported by this server; supported: " + String.join(", ", PROVIDERS));
        }
        if (!PROVIDERS.contains(provider)) {
            throw MeshException.invalid("unknown posture integration provider \"" + provider + "\"; expected one of "
                    + String.join(", ", PROVIDERS));
        }
        if (settings.clientSecret() == null || settings.clientSecret().isEmpty()) {
            throw MeshException.invalid("a posture integration needs \"clientSecret\"");
        }
        return writer.change(caller, INTEGRATIONS_WRITE_SCOPE, (h, now) -> {
            PostureIntegration created = new PostureIntegration("pi" + RandomText.alphanumeric(12) + "CNTRL",
                    provider, text(settings.cloudId()), text(settings.clientId()), text(settings.tenantId()),
                    settings.clientSecret(), now);
            if (store.hasProvider(h, provider)) {
                throw MeshException.conflict("a posture integration for " + provider + " exists already");
            }
            store.putIntegration(h, created);
            audit.append(h, caller.audited(created.updated(), "posture.integration.create", created.id(),
                    Map.of("provider", provider)));
            return created;
        });
    }

    /** Applies {@code change} to the integration as stored, under the writer: parallel changes of other fields stay. */
    public PostureIntegration updateIntegration(Caller caller, String id, IntegrationChange change) {
        return writer.change(caller, INTEGRATIONS_WRITE_SCOPE, (h, now) -> {
            PostureIntegration i = store.integration(h, id).orElseThrow(() -> unknownIntegration(id));
            PostureIntegration updated = new PostureIntegration(id, i.provider(), keep(change.cloudId(), i.cloudId()),
                    keep(change.clientId(), i.clientId()), keep(change.tenantId(), i.tenantId()),
                    keep(change.clientSecret(), i.clientSecret()), now);
            store.putIntegration(h, updated);
            audit.append(h, caller.audited(updated.updated(), "posture.integration.update", id, AuditDetails.of()
                    .put("provider", i.provider())
                    .change("cloudId", i.cloudId(), updated.cloudId())
                    .change("clientId", i.clientId(), updated.clientId())
                    .change("tenantId", i.tenantId(), updated.tenantId())
                    .put("clientSecretChanged", !i.clientSecret().equals(updated.clientSecret())).map()));
            return updated;
        });
    }

    public void deleteIntegration(Caller caller, String id) {
        writer.write(caller, INTEGRATIONS_WRITE_SCOPE, (h, now) -> {
            if (!store.deleteIntegration(h, id)) {
                throw unknownIntegration(id);
            }
            audit.append(h, caller.audited(now, "posture.integration.delete", id, Map.of()));
        });
    }

    /** The node's custom attributes, expired ones left out. */
    public List<PostureAttribute> attributes(Caller caller, long nodeId) {
        caller.require(ATTRIBUTES_READ_SCOPE);
        var now = clock.instant();
        return jdbi.withHandle(h -> {
            requireNode(h, nodeId);
            return store.attributes(h, nodeId).stream()
                    .filter(a -> a.expiry() == null || a.expiry().isAfter(now)).toList();
        });
    }

    public void setAttribute(Caller caller, long nodeId, PostureAttribute attribute) {
        caller.require(ATTRIBUTES_WRITE_SCOPE);
        requireCustom(attribute.name());
        if (!(attribute.value() instanceof String || attribute.value() instanceof Number
                || attribute.value() instanceof Boolean)) {
            throw MeshException.invalid("the value of posture attribute " + attribute.name()
                    + " must be a string, a number or a boolean");
        }
        writer.write(caller, ATTRIBUTES_WRITE_SCOPE, (h, now) -> {
            requireNode(h, nodeId);
            store.putAttribute(h, nodeId, attribute);
            audit.append(h, caller.audited(now, "posture.attribute.set", Long.toString(nodeId),
                    AuditDetails.of().put("name", attribute.name()).put("value", attribute.value())
                            .put("expiry", attribute.expiry()).map()));
        });
    }

    public void deleteAttribute(Caller caller, long nodeId, String name) {
        caller.require(ATTRIBUTES_WRITE_SCOPE);
        requireCustom(name);
        writer.write(caller, ATTRIBUTES_WRITE_SCOPE, (h, now) -> {
            requireNode(h, nodeId);
            if (!store.deleteAttribute(h, nodeId, name)) {
                throw MeshException.notFound("node " + nodeId + " has no posture attribute " + name);
            }
            audit.append(h, caller.audited(now, "posture.attribute.delete", Long.toString(nodeId),
                    Map.of("name", name)));
        });
    }

    private void requireNode(org.jdbi.v3.core.Handle h, long nodeId) {
        if (nodes.byId(h, nodeId).isEmpty()) {
            throw MeshException.notFound("no node " + nodeId);
        }
    }

    private static void requireCustom(String name) {
        if (name == null || !CUSTOM.matcher(name).matches()) {
            throw MeshException.invalid("invalid posture attribute \"" + name
                    + "\": only custom:<name> attributes (letters, digits, underscores) can be set");
        }
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private static String keep(String value, String current) {
        return value == null || value.isEmpty() ? current : value;
    }

    private static MeshException unknownIntegration(String id) {
        return MeshException.notFound("no posture integration " + id);
    }
}
