package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.ApiHandler;
import io.meshcontrol.server.http.Routes;
import java.util.ArrayList;
import java.util.List;

/**
 * Where {@code /api/v2} operations are registered. Resources of the network hang off
 * {@code /api/v2/tailnet/{tailnet}}, whose segment is {@code -} (the credential's own network, what every vendor
 * client sends by default) or this network's ID; any other name is a network that does not exist here (404). Devices,
 * users, webhooks and posture integrations are addressed by id, with no network in the path.
 *
 * <p>Each registration is also the documentation of the operation: {@link #doc} adds the scope it needs and what it
 * does here, and {@code /api/v2/docs} ({@link V2DocsPage}) lists what was registered, so the page cannot describe an
 * operation that is not served.
 */
public final class V2Routes {

    public static final String TAILNET = "/api/v2/tailnet/{tailnet}";

    /**
     * One registered operation as the documentation shows it.
     *
     * @param scope the scope it needs, or "" when it needs none or was registered without documentation
     * @param summary what it does here; partial support says how, unsupported operations say so
     */
    public record Operation(String method, String path, String scope, String summary) {
    }

    private final Routes routes;
    private final String tailnetId;
    private final List<Operation> operations = new ArrayList<>();

    public V2Routes(Routes routes, String tailnetId) {
        this.routes = routes;
        this.tailnetId = tailnetId;
    }

    /** An operation on the network: {@code path} follows {@code /api/v2/tailnet/{tailnet}}. */
    public V2Routes tailnet(String method, String path, ApiHandler handler) {
        routes.add(method, TAILNET + path, request -> {
            String tailnet = request.pathParam("tailnet");
            if (!tailnet.equals("-") && !tailnet.equals(tailnetId)) {
                throw MeshException.notFound("tailnet not found: " + tailnet);
            }
            return handler.handle(request);
        });
        return record(method, TAILNET + path);
    }

    /** An operation addressed without a network: {@code path} follows {@code /api/v2}. */
    public V2Routes global(String method, String path, ApiHandler handler) {
        routes.add(method, "/api/v2" + path, handler);
        return record(method, "/api/v2" + path);
    }

    /** An operation anyone may call (the token endpoints authenticate their own credentials). */
    public V2Routes open(String method, String path, ApiHandler handler) {
        routes.addPublic(method, "/api/v2" + path, handler);
        return record(method, "/api/v2" + path);
    }

    /** Documents the operation registered last: the scope it needs and what it does here. */
    public synchronized V2Routes doc(String scope, String summary) {
        Operation last = operations.removeLast();
        operations.add(new Operation(last.method(), last.path(), scope, summary));
        return this;
    }

    /** Every operation registered so far, in registration order. */
    public synchronized List<Operation> operations() {
        return List.copyOf(operations);
    }

    private synchronized V2Routes record(String method, String path) {
        operations.add(new Operation(method, path, "", ""));
        return this;
    }
}
