package io.meshcontrol.server.testing;

import io.openapiprocessor.interfaces.Converter;
import io.openapiprocessor.jsonschema.ouput.OutputConverter;
import io.openapiprocessor.jsonschema.ouput.OutputUnit;
import io.openapiprocessor.jsonschema.reader.UriReader;
import io.openapiprocessor.jsonschema.schema.DocumentLoader;
import io.openapiprocessor.jsonschema.schema.JsonInstance;
import io.openapiprocessor.jsonschema.schema.JsonSchema;
import io.openapiprocessor.jsonschema.schema.Output;
import io.openapiprocessor.jsonschema.schema.SchemaStore;
import io.openapiprocessor.jsonschema.schema.SchemaVersion;
import io.openapiprocessor.jsonschema.validator.Validator;
import io.openapiprocessor.jsonschema.validator.ValidatorSettings;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * An OpenAPI 3.1 document used as a contract that real exchanges are held to. Generic: it knows nothing of our API,
 * so {@code /api/v1} and {@code /api/v2} (each with its own document) are checked the same way.
 *
 * <ul>
 *   <li>{@link #documentProblems()}: the document against the official OpenAPI 3.1 schema (with schema objects
 *       checked against the OpenAPI JSON Schema dialect), plus one rule of ours: every object schema of a JSON
 *       response is closed ({@code additionalProperties}), so a field the server sends and the document lacks fails.
 *   <li>{@link #check(Exchange)}: one request and its answer: the operation must be documented, the request body
 *       must match the operation's request schema, the status must be documented for the operation, the answer's
 *       media type must be one of that status's, a JSON body must match its schema (an empty body where no
 *       content is documented), and the headers documented as required must be there.
 *   <li>{@link #unchecked()}: the documented operation-and-status pairs no exchange has shown yet.
 * </ul>
 */
public final class ApiContract {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    /** Where the document is registered in the schema store; schema {@code $ref}s resolve inside it. */
    private static final URI DOCUMENT = URI.create("https://contract.meshcontrol.invalid/openapi.yaml");
    private static final URI OPENAPI_31 = URI.create("https://spec.openapis.org/oas/3.1/schema-base/2025-09-15");
    /** The official OpenAPI 3.1 schema and the dialect it checks schema objects with, as openapi-parser ships them. */
    private static final Map<String, String> OPENAPI_31_RESOURCES = Map.of(
            "https://spec.openapis.org/oas/3.1/schema/2025-09-15", "/openapi/3.1/schema/2025-09-15",
            OPENAPI_31.toString(), "/openapi/3.1/schema-base/2025-09-15",
            "https://spec.openapis.org/oas/3.1/dialect/2024-11-10", "/openapi/3.1/dialect/2024-11-10",
            "https://spec.openapis.org/oas/3.1/meta/2024-11-10", "/openapi/3.1/meta/2024-11-10");

    private final Map<String, Object> document;
    private final SchemaStore store;
    private final Validator validator = new Validator(new ValidatorSettings());
    private final Map<String, JsonSchema> schemas = new HashMap<>();
    private final Set<String> checked = new TreeSet<>();

    /**
     * One request and the answer the server gave to it.
     *
     * @param path as requested, query included
     * @param requestBody the JSON sent, or null when none was sent or it is meant to break the request schema
     * @param headers the answer's headers, first value each, by lower-case name
     */
    public record Exchange(String method, String path, String requestBody, int status, Map<String, String> headers,
            String responseBody) {

        public Exchange {
            Map<String, String> lower = new HashMap<>();
            headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));
            headers = Map.copyOf(lower);
        }

        public static Exchange of(String method, String path, String requestBody, HttpResponse<String> response) {
            Map<String, String> headers = new HashMap<>();
            response.headers().map().forEach((name, values) -> headers.put(name, values.getFirst()));
            return new Exchange(method, path, requestBody, response.statusCode(), headers, response.body());
        }

        public String contentType() {
            return headers.get("content-type");
        }
    }

    private ApiContract(Map<String, Object> document) {
        this.document = document;
        Converter yaml = text -> new YAMLMapper().readValue(text, Object.class);
        this.store = new SchemaStore(new DocumentLoader(new UriReader(), yaml));
        store.registerDraft202012();
        OPENAPI_31_RESOURCES.forEach((id, resource) -> store.register(URI.create(id), resource));
        store.register(DOCUMENT, document);
    }

    @SuppressWarnings("unchecked")
    public static ApiContract of(String yamlText) {
        return new ApiContract((Map<String, Object>) new YAMLMapper().readValue(yamlText, Object.class));
    }

    /** Everything the official OpenAPI 3.1 schema finds wrong with the document, one line each. */
    public List<String> documentProblems() {
        return violations(store.getSchema(OPENAPI_31, SchemaVersion.Draft202012), document);
    }

    /**
     * Object schemas of JSON responses that let unknown properties through (no {@code additionalProperties}), by
     * pointer. A closed schema makes a field the server sends and the document lacks fail {@link #check}.
     */
    public Set<String> openResponseSchemas() {
        Set<String> open = new TreeSet<>();
        Set<String> seen = new TreeSet<>();
        for (String operation : operations()) {
            for (String status : map(at(operationPointer(operation) + "/responses")).keySet()) {
                Resolved response = resolve(operationPointer(operation) + "/responses/" + escape(status));
                Map<String, Object> content = map(response.value().get("content"));
                for (String mediaType : content == null ? Set.<String>of() : content.keySet()) {
                    String schema = response.pointer() + "/content/" + escape(mediaType) + "/schema";
                    if (isJson(mediaType) && at(schema) != null) {
                        openObjects(schema, seen, open);
                    }
                }
            }
        }
        return open;
    }

    /** Every documented operation as {@code METHOD /path/template}. */
    public Set<String> operations() {
        Set<String> operations = new TreeSet<>();
        map(document.get("paths")).forEach((path, item) -> map(item).keySet().stream().filter(METHODS::contains)
                .forEach(method -> operations.add(method.toUpperCase() + " " + path)));
        return operations;
    }

    /**
     * The operation's own {@code security} requirement: a list of alternatives, each naming a security scheme and
     * the scopes (for a bearer scheme: roles) it needs; an empty list for a public operation. Empty when the
     * operation declares none itself and would fall back to the document's default.
     */
    @SuppressWarnings("unchecked")
    public Optional<List<Map<String, List<String>>>> declaredSecurity(String operation) {
        Map<String, Object> item = map(at(operationPointer(operation)));
        return item == null || !item.containsKey("security") ? Optional.empty()
                : Optional.of((List<Map<String, List<String>>>) item.get("security"));
    }

    /** Whether the operation documents a request body it requires. */
    public boolean requiresRequestBody(String operation) {
        return Boolean.TRUE.equals(resolve(operationPointer(operation) + "/requestBody").value().get("required"));
    }

    /** Whether the operation documents the answer {@code status}. */
    public boolean documents(String operation, int status) {
        Map<String, Object> responses = map(at(operationPointer(operation) + "/responses"));
        return responses != null && responses.containsKey(Integer.toString(status));
    }

    /** Documented {@code METHOD /path/template status} triples that no exchange has shown. */
    public Set<String> unchecked() {
        Set<String> unchecked = new TreeSet<>();
        for (String operation : operations()) {
            for (String status : map(at(operationPointer(operation) + "/responses")).keySet()) {
                unchecked.add(operation + " " + status);
            }
        }
        unchecked.removeAll(checked);
        return unchecked;
    }

    /** Checks one exchange against the document and records it; throws an {@link AssertionError} naming each fault. */
    public void check(Exchange exchange) {
        List<String> faults = new ArrayList<>();
        String operation = operationFor(exchange.method(), exchange.path());
        if (operation == null) {
            throw new AssertionError(exchange.method() + " " + exchange.path() + " is not documented");
        }
        String pointer = operationPointer(operation);
        Resolved requestBody = resolve(pointer + "/requestBody");
        if (exchange.requestBody() == null) {
            if (Boolean.TRUE.equals(requestBody.value().get("required")) && exchange.status() / 100 == 2) {
                faults.add("the document requires a request body, the server accepted a request without one");
            }
        } else if (requestBody.value().isEmpty()) {
            faults.add("the request has a body but the document gives the operation none");
        } else {
            faults.addAll(validate(requestBody.pointer() + "/content/application~1json", exchange.requestBody(),
                    "request"));
        }
        Map<String, Object> responses = map(at(pointer + "/responses"));
        String status = Integer.toString(exchange.status());
        if (!responses.containsKey(status)) {
            faults.add("status " + status + " is not documented");
        } else {
            Resolved response = resolve(pointer + "/responses/" + status);
            Map<String, Object> headers = map(response.value().get("headers"));
            for (String header : headers == null ? Set.<String>of() : headers.keySet()) {
                if (Boolean.TRUE.equals(map(headers.get(header)).get("required"))
                        && !exchange.headers().containsKey(header.toLowerCase(Locale.ROOT))) {
                    faults.add("the required header " + header + " is missing");
                }
            }
            Map<String, Object> content = map(response.value().get("content"));
            String mediaType = exchange.contentType() == null ? null
                    : exchange.contentType().split(";")[0].trim().toLowerCase();
            if (content == null) {
                if (!exchange.responseBody().isEmpty()) {
                    faults.add("the document gives no content, the server sent " + exchange.contentType());
                }
            } else if (mediaType == null || !content.containsKey(mediaType)) {
                faults.add("content type " + exchange.contentType() + " is not one of " + content.keySet());
            } else if (isJson(mediaType)) {
                faults.addAll(validate(response.pointer() + "/content/" + escape(mediaType), exchange.responseBody(),
                        "response"));
            }
        }
        if (faults.isEmpty()) {
            checked.add(operation + " " + status);
        } else {
            throw new AssertionError(operation + " answered " + status + ": " + String.join("; ", faults)
                    + "\nresponse body: " + exchange.responseBody());
        }
    }

    /** The documented operation a concrete request is for; literal path segments win over parameters. */
    private String operationFor(String method, String path) {
        String[] segments = path.split("\\?", 2)[0].split("/", -1);
        String best = null;
        int bestLiterals = -1;
        for (String template : map(document.get("paths")).keySet()) {
            String[] parts = template.split("/", -1);
            if (parts.length != segments.length
                    || !map(map(document.get("paths")).get(template)).containsKey(method.toLowerCase())) {
                continue;
            }
            int literals = 0;
            boolean matches = true;
            for (int i = 0; i < parts.length && matches; i++) {
                boolean parameter = parts[i].startsWith("{") && parts[i].endsWith("}");
                matches = parameter ? !segments[i].isEmpty() : parts[i].equals(segments[i]);
                literals += parameter ? 0 : 1;
            }
            if (matches && literals > bestLiterals) {
                best = method.toUpperCase() + " " + template;
                bestLiterals = literals;
            }
        }
        return best;
    }

    /** The body against the schema of the media type at {@code mediaPointer}; a media type without schema takes any. */
    private List<String> validate(String mediaPointer, String body, String what) {
        Map<String, Object> media = map(at(mediaPointer));
        if (media == null) {
            return List.of("the " + what + " is JSON but the document gives no application/json content for it");
        }
        if (!media.containsKey("schema")) {
            return List.of();
        }
        Object instance;
        try {
            instance = JsonMapper.builder().build().readValue(body, Object.class);
        } catch (JacksonException e) {
            return List.of("the " + what + " body is not JSON: " + e.getOriginalMessage());
        }
        JsonSchema schema = schemas.computeIfAbsent(mediaPointer, pointer -> store.getSchema(
                store.register(Map.of("$ref",
                        // a URI fragment: the + of application/problem+json would read as a space
                        DOCUMENT + "#" + (pointer + "/schema").replace("+", "%2B"))), SchemaVersion.Draft202012));
        return violations(schema, instance).stream().map(fault -> what + " " + fault).toList();
    }

    private List<String> violations(JsonSchema schema, Object instance) {
        OutputUnit output = new OutputConverter(Output.BASIC).convert(validator.validate(schema,
                new JsonInstance(instance)));
        if (output.isValid()) {
            return List.of();
        }
        List<String> faults = new ArrayList<>();
        for (OutputUnit error : output.getErrors()) {
            if (error.getError() != null) {
                faults.add("at '" + error.getInstanceLocation() + "': " + error.getError() + " (schema "
                        + error.getKeywordLocation() + ")");
            }
        }
        return faults.isEmpty() ? List.of("invalid (no detail)") : faults;
    }

    /** Walks the schema at {@code pointer} and what it refers to, adding the open object schemas to {@code open}. */
    private void openObjects(String pointer, Set<String> seen, Set<String> open) {
        Map<String, Object> node = map(at(pointer));
        if (node == null || !seen.add(pointer)) {
            return;
        }
        if (node.get("$ref") instanceof String ref && ref.startsWith("#/")) {
            openObjects(ref.substring(1), seen, open);
        }
        boolean object = "object".equals(node.get("type")) || node.containsKey("properties");
        if (object && !node.containsKey("additionalProperties") && !node.containsKey("unevaluatedProperties")) {
            open.add(pointer);
        }
        for (String key : List.of("items", "additionalProperties")) {
            openObjects(pointer + "/" + key, seen, open);
        }
        if (map(node.get("properties")) != null) {
            for (String property : map(node.get("properties")).keySet()) {
                openObjects(pointer + "/properties/" + escape(property), seen, open);
            }
        }
        for (String key : List.of("allOf", "anyOf", "oneOf")) {
            if (node.get(key) instanceof List<?> list) {
                for (int i = 0; i < list.size(); i++) {
                    openObjects(pointer + "/" + key + "/" + i, seen, open);
                }
            }
        }
    }

    private record Resolved(String pointer, Map<String, Object> value) {
    }

    /** The object at {@code pointer}, following document-local {@code $ref}s (responses, request bodies). */
    private Resolved resolve(String pointer) {
        Map<String, Object> value = map(at(pointer));
        while (value != null && value.get("$ref") instanceof String ref && ref.startsWith("#/")) {
            pointer = ref.substring(1);
            value = map(at(pointer));
        }
        return new Resolved(pointer, value == null ? Map.of() : value);
    }

    private Object at(String pointer) {
        Object node = document;
        for (String token : pointer.substring(1).split("/")) {
            node = map(node) == null ? null : map(node).get(token.replace("~1", "/").replace("~0", "~"));
        }
        return node;
    }

    private static String operationPointer(String operation) {
        String[] parts = operation.split(" ", 2);
        return "/paths/" + escape(parts[1]) + "/" + parts[0].toLowerCase();
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        return node instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }
}
