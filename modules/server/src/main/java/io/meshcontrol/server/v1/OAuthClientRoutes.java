package io.meshcontrol.server.v1;

import io.meshcontrol.api.IssuedOAuthClient;
import io.meshcontrol.api.OAuthClientList;
import io.meshcontrol.api.OAuthClientRequest;
import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.core.model.OAuthClient;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;

/** {@code /api/v1/oauth-client}: OAuth clients and federated identities: create, list, read, update, revoke. */
public final class OAuthClientRoutes {

    private final OAuthClients clients;

    public OAuthClientRoutes(OAuthClients clients) {
        this.clients = clients;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/oauth-client", request -> Reply.ok(new OAuthClientList(
                clients.list(request.caller()).stream().map(OAuthClientRoutes::view).toList())));
        routes.add("POST", "/api/v1/oauth-client", request -> {
            OAuthClients.Issued issued = clients.create(request.caller(),
                    fields(request.requiredBody(OAuthClientRequest.class)));
            return Reply.created(new IssuedOAuthClient(view(issued.client()), issued.secret()));
        });
        routes.add("GET", "/api/v1/oauth-client/{clientId}", request ->
                Reply.ok(view(clients.get(request.caller(), request.pathParam("clientId")))));
        routes.add("PATCH", "/api/v1/oauth-client/{clientId}", request -> Reply.ok(view(clients.update(
                request.caller(), request.pathParam("clientId"), fields(request.requiredBody(OAuthClientRequest.class))))));
        routes.add("DELETE", "/api/v1/oauth-client/{clientId}", request -> {
            clients.revoke(request.caller(), request.pathParam("clientId"));
            return Reply.noContent();
        });
    }

    static OAuthClients.Fields fields(OAuthClientRequest body) {
        return new OAuthClients.Fields(body.keyType(), body.scopes(), body.tags(), body.description(), body.issuer(),
                body.audience(), body.subject(), body.customClaimRules());
    }

    static OAuthClientView view(OAuthClient client) {
        OAuthClient.Trust trust = client.trust();
        return new OAuthClientView(client.id(), client.kind().wireName(), client.scopes(), client.tags(),
                client.description(), trust == null ? null : trust.issuer(), trust == null ? null : trust.audience(),
                trust == null ? null : trust.subject(), trust == null ? null : trust.customClaimRules(), client.creator(),
                client.createdAt(), client.updatedAt(), client.isRevoked());
    }
}
