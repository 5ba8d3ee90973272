package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.server.http.ApiHandler;
import io.meshcontrol.server.http.Routes;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Where {@code /api/v2} operations are registered. Resources of the network hang off
 * {@code /api/v2/tailnet/{tailnet}}, whose segment is {@code -} (the credential's own network, what every vendor
 * client sends by default) or this network's ID; any other name is a network that does not exist here (404). Devices,
 * users, webhooks and posture integrations are addressed by id, with no network in the path.
 *
 * <p>Each registration is also the documentation of the operation: {@link #doc} adds the scope it needs and what it
 * does here, {@link #takes} and {@link #answers} the records its request and answer bodies are ({@link Bodies},
 * {@link Answers}). {@code /api/v2/docs} ({@link V2DocsPage}) and {@code /api/v2/openapi.json} ({@link V2OpenApi})
 * are made from what was registered, so neither can describe an operation that is not served.
 */
public final class V2Routes {

    public static final String TAILNET = "/api/v2/tailnet/{tailnet}";

    /**
     * One registered operation as the documentation shows it.
     *
     * @param open whether it is served without a credential
     * @param scope the scope it needs, or "" when it needs none or was registered without documentation
     * @param summary what it does here; partial support says how, unsupported operations say so
     */
    public record Operation(String method, String path, boolean open, String scope, String summary,
            Contract contract) {

        Operation with(Contract changed) {
            return new Operation(method, path, open, scope, summary, changed);
        }
    }

    /**
     * What an operation takes and answers, as {@code /api/v2/openapi.json} shows it.
     *
     * @param request the request body by media type, empty when it takes none
     * @param answers the successful answers by status, each by media type; an empty content map is an empty body
     * @param refusals the refusals (in the vendor's error shape) it may give besides those every operation documents
     *     ({@link V2OpenApi})
     * @param queries the query parameters it reads
     */
    public record Contract(Map<String, Type> request, Map<Integer, Map<String, Type>> answers,
            List<Integer> refusals, List<String> queries) {

        static final Contract NONE = new Contract(Map.of(), Map.of(), List.of(), List.of());

        public Contract {
            request = unmodifiable(request);
            Map<Integer, Map<String, Type>> copy = new LinkedHashMap<>();
            answers.forEach((status, content) -> copy.put(status, unmodifiable(content)));
            answers = Collections.unmodifiableMap(copy);
            refusals = List.copyOf(new TreeSet<>(refusals));
            queries = List.copyOf(queries);
        }

        Contract withRequest(String mediaType, Type type) {
            Map<String, Type> changed = new LinkedHashMap<>(request);
            changed.put(mediaType, type);
            return new Contract(changed, answers, refusals, queries);
        }

        /** {@code mediaType} null: the answer has no body. */
        Contract withAnswer(int status, String mediaType, Type type) {
            Map<Integer, Map<String, Type>> changed = new LinkedHashMap<>(answers);
            Map<String, Type> content = new LinkedHashMap<>(changed.getOrDefault(status, Map.of()));
            if (mediaType != null) {
                content.put(mediaType, type);
            }
            changed.put(status, content);
            return new Contract(request, changed, refusals, queries);
        }

        Contract withRefusals(List<Integer> more) {
            List<Integer> changed = new ArrayList<>(refusals);
            changed.addAll(more);
            return new Contract(request, answers, changed, queries);
        }

        Contract withQueries(List<String> more) {
            List<String> changed = new ArrayList<>(queries);
            changed.addAll(more);
            return new Contract(request, answers, refusals, changed);
        }

        private static <K, V> Map<K, V> unmodifiable(Map<K, V> map) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(map));
        }
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
        return record(method, TAILNET + path, false);
    }

    /** An operation addressed without a network: {@code path} follows {@code /api/v2}. */
    public V2Routes global(String method, String path, ApiHandler handler) {
        routes.add(method, "/api/v2" + path, handler);
        return record(method, "/api/v2" + path, false);
    }

    /** An operation anyone may call (the token endpoints authenticate their own credentials). */
    public V2Routes open(String method, String path, ApiHandler handler) {
        routes.addPublic(method, "/api/v2" + path, handler);
        return record(method, "/api/v2" + path, true);
    }

    /** Documents the operation registered last: the scope it needs and what it does here. */
    public synchronized V2Routes doc(String scope, String summary) {
        Operation last = operations.removeLast();
        operations.add(new Operation(last.method(), last.path(), last.open(), scope, summary, last.contract()));
        return this;
    }

    /** The operation registered last takes a JSON body of this type (a {@link Bodies} record, mostly). */
    public V2Routes takes(Type type) {
        return takes("application/json", type);
    }

    /** The operation registered last takes a body of this media type; {@code String} for text that is not JSON. */
    public V2Routes takes(String mediaType, Type type) {
        return changeLast(contract -> contract.withRequest(mediaType, type));
    }

    /** The operation registered last answers 200 with JSON of this type (an {@link Answers} record, mostly). */
    public V2Routes answers(Type type) {
        return answers(200, "application/json", type);
    }

    /**
     * The operation registered last answers {@code status} with a body of this media type; {@code String} for text
     * that is not JSON.
     */
    public V2Routes answers(int status, String mediaType, Type type) {
        return changeLast(contract -> contract.withAnswer(status, mediaType, type));
    }

    /** The operation registered last may refuse with these statuses too, in the vendor's error shape. */
    public V2Routes refuses(Integer... statuses) {
        return changeLast(contract -> contract.withRefusals(List.of(statuses)));
    }

    /** The operation registered last reads these query parameters (each optional, a string). */
    public V2Routes query(String... names) {
        return changeLast(contract -> contract.withQueries(List.of(names)));
    }

    /** Every operation registered so far, in registration order. */
    public synchronized List<Operation> operations() {
        return List.copyOf(operations);
    }

    private synchronized V2Routes changeLast(UnaryOperator<Contract> change) {
        Operation last = operations.removeLast();
        operations.add(last.with(change.apply(last.contract())));
        return this;
    }

    private synchronized V2Routes record(String method, String path, boolean open) {
        operations.add(new Operation(method, path, open, "", "", Contract.NONE));
        return this;
    }
}
