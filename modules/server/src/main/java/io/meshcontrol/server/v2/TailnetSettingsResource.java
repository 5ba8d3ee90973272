package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.state.Policies;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.server.http.Reply;
import java.util.Objects;

/**
 * Tailnet settings: four can be changed here ({@code devicesApprovalOn}, {@code usersApprovalOn},
 * {@code postureIdentityCollectionOn}, {@code devicesKeyDurationDays}); the others describe this server and are
 * read-only. A PATCH may repeat a read-only value (the Terraform provider always sends the two ACL fields); a
 * different one is refused with 400 naming the field. Null or absent leaves a field as it is.
 */
final class TailnetSettingsResource {

    private final Settings settings;
    private final Policies policies;

    TailnetSettingsResource(Settings settings, Policies policies) {
        this.settings = settings;
        this.policies = policies;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/settings", request -> Reply.ok(view(settings.get(request.caller()))))
                .doc(Settings.READ_SCOPE, "The tailnet settings").answers(Answers.TailnetSettings.class);
        v2.tailnet("PATCH", "/settings", request -> {
            Bodies.TailnetSettings body = request.requiredBody(Bodies.TailnetSettings.class);
            Answers.TailnetSettings current = view(settings.get(request.caller()));
            requireUnchanged("aclsExternallyManagedOn", current.aclsExternallyManagedOn(),
                    body.aclsExternallyManagedOn());
            requireUnchanged("aclsExternalLink", current.aclsExternalLink(), body.aclsExternalLink());
            requireUnchanged("devicesAutoUpdatesOn", current.devicesAutoUpdatesOn(), body.devicesAutoUpdatesOn());
            requireUnchanged("usersRoleAllowedToJoinExternalTailnets",
                    current.usersRoleAllowedToJoinExternalTailnets(), body.usersRoleAllowedToJoinExternalTailnets());
            requireUnchanged("networkFlowLoggingOn", current.networkFlowLoggingOn(), body.networkFlowLoggingOn());
            requireUnchanged("regionalRoutingOn", current.regionalRoutingOn(), body.regionalRoutingOn());
            requireUnchanged("httpsEnabled", current.httpsEnabled(), body.httpsEnabled());
            if (body.devicesKeyDurationDays() != null && body.devicesKeyDurationDays() < 1) {
                throw MeshException.invalid("devicesKeyDurationDays must be between 1 and 180, got "
                        + body.devicesKeyDurationDays());
            }
            return Reply.ok(view(settings.update(request.caller(), new Settings.Change(body.devicesApprovalOn(),
                    body.usersApprovalOn(), body.devicesKeyDurationDays(), body.postureIdentityCollectionOn()))));
        }).doc(Settings.WRITE_SCOPE, "Partial: changes devicesApprovalOn, usersApprovalOn, "
                + "postureIdentityCollectionOn and devicesKeyDurationDays (1-180); the other fields are read-only "
                + "(repeating their value succeeds, another value is refused with 400)")
                .takes(Bodies.TailnetSettings.class).answers(Answers.TailnetSettings.class);
    }

    /**
     * The settings in the vendor's shape. {@code aclsExternallyManagedOn} says whether the policy comes from a file
     * ({@code policy.mode: file}); {@code devicesKeyDurationDays} is 0 while {@code node.expiry} decides; regional
     * routing is always on here.
     */
    private Answers.TailnetSettings view(TailnetSettings s) {
        return new Answers.TailnetSettings(policies.file() != null, "", s.devicesApprovalOn(), false,
                s.devicesKeyDurationDays(), s.usersApprovalOn(), "none", false, true,
                s.postureIdentityCollectionOn(), false);
    }

    private static void requireUnchanged(String field, Object current, Object wanted) {
        if (wanted != null && !Objects.equals(current, wanted)) {
            throw MeshException.invalid(field + " is read-only on this server (it is " + current + ")");
        }
    }
}
