package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.ApiHandler;

/**
 * Provider resources this server does not have, answered 404 with a message that says so: contacts
 * ({@code mesh_contacts}: there is no vendor account to reach) and the AWS external id
 * ({@code mesh_aws_external_id}: no log streaming to S3 by role).
 */
final class UnsupportedResources {

    private UnsupportedResources() {
    }

    static void register(V2Routes v2) {
        ApiHandler contacts = request -> {
            throw MeshException.notFound("contacts are not supported by this server");
        };
        ApiHandler awsExternalId = request -> {
            throw MeshException.notFound("AWS external ids are not supported by this server");
        };
        String unsupported = "Unsupported: 404";
        v2.tailnet("GET", "/contacts", contacts).doc("", unsupported);
        v2.tailnet("PATCH", "/contacts/{type}", contacts).doc("", unsupported);
        v2.tailnet("POST", "/contacts/{type}/resend-verification-email", contacts).doc("", unsupported);
        v2.tailnet("POST", "/aws-external-id", awsExternalId).doc("", unsupported);
        v2.tailnet("POST", "/aws-external-id/{id}/validate-aws-trust-policy", awsExternalId).doc("", unsupported);
    }
}
