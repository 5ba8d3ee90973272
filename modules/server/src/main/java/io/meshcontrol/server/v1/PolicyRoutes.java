package io.meshcontrol.server.v1;

import io.meshcontrol.api.PolicyCheck;
import io.meshcontrol.api.PolicyDocument;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.state.Policies;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Routes;
import java.util.Map;

/**
 * {@code /api/v1/policy}: read and save the policy file, with an ETag for conditional writes, and check a policy
 * (its tests included) without saving it.
 */
public final class PolicyRoutes {

    private final Policies policies;

    public PolicyRoutes(Policies policies) {
        this.policies = policies;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/policy", request -> reply(policies.get(request.caller())));
        routes.add("PUT", "/api/v1/policy", request -> reply(policies.set(request.caller(), text(request),
                request.header("If-Match").orElse(null))));
        routes.add("POST", "/api/v1/policy/check", request -> {
            Policy checked = policies.check(request.caller(), text(request));
            return new Reply(200, new PolicyCheck(true, checked.tests().size(), checked.sshTests().size()), Map.of());
        });
    }

    private static String text(ApiRequest request) {
        PolicyDocument body = request.requiredBody(PolicyDocument.class);
        if (body.policy() == null) {
            throw MeshException.invalid("the body needs the field \"policy\" with the policy text");
        }
        return body.policy();
    }

    private static Reply reply(Policies.Current current) {
        return new Reply(200, new PolicyDocument(current.policy().text()), Map.of("ETag", current.etag()));
    }
}
