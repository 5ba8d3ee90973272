package io.meshcontrol.server.v2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v2/openapi.json}: the OpenAPI 3.1 document of {@code /api/v2}, made at request time from what
 * {@link V2Routes} registered, so it describes exactly what is served. Each operation's request and answer bodies are
 * the records it registered ({@link Bodies}, {@link Answers}), turned into schemas by the rules Jackson writes and
 * reads them by:
 *
 * <ul>
 *   <li>an answer's field is required unless it is {@code @JsonInclude(NON_NULL)} (sent only with a value), and may
 *       be null when it is {@code @JsonInclude(ALWAYS)}; answer objects are closed ({@code additionalProperties:
 *       false}), so a field sent and not declared fails the contract test and the fuzzer;</li>
 *   <li>a request body's fields are all optional and may be null (null means absent; the handler names a missing
 *       one), and the object is closed, as the strict reader refuses unknown fields, unless the record is
 *       {@code @JsonIgnoreProperties(ignoreUnknown = true)};</li>
 *   <li>{@code Map<String, T>} is an object of {@code T} (its keys are data), {@code List<T>} an array,
 *       {@code Instant} a date-time string, {@code byte[]} base64 text, {@code Object} any JSON value.</li>
 * </ul>
 *
 * Every operation also documents its refusals, all in the vendor's error shape ({@link Answers.Error}): 400 and 404;
 * 401 and 403 when it needs a credential; 409 when it changes something; 413 when it takes a body; and those it
 * registered with {@link V2Routes#refuses}.
 *
 * <p>The document itself is built as a tree of maps: it is OpenAPI's format, not a shape of ours, and the test
 * checks it against the official OpenAPI 3.1 schema.
 */
final class V2OpenApi {

    /** A JSON object whose members are not the document's to list (a policy): its schema stays open. */
    static final class FreeObject {

        private FreeObject() {
        }
    }

    /** A body that is one of several types (a policy, or the policy's details). */
    record AnyOf(List<Type> types) implements Type {
    }

    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}]+)}");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<String, Object> NULL = Map.of("type", "null");

    private final V2Routes v2;
    private final String version;

    V2OpenApi(V2Routes v2, String version) {
        this.v2 = v2;
        this.version = version;
    }

    void register() {
        v2.open("GET", "/openapi.json", request -> Reply.ok(new RawBody("application/json",
                JSON.writeValueAsBytes(document()))))
                .doc("", "This document: the OpenAPI 3.1 description of /api/v2, made from the registered operations")
                .answers(200, "application/json", FreeObject.class);
    }

    /** The document, as a tree of maps and lists in the order it is written. */
    Map<String, Object> document() {
        Schemas schemas = new Schemas();
        Map<String, Object> paths = new TreeMap<>();
        for (V2Routes.Operation op : v2.operations()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> item = (Map<String, Object>) paths.computeIfAbsent(op.path(),
                    path -> new LinkedHashMap<>());
            item.put(op.method().toLowerCase(), operation(op, schemas));
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("openapi", "3.1.0");
        document.put("info", Map.of("title", "Mesh Control vendor-compatible API", "version", version,
                "description", """
                        The vendor-compatible API (`/api/v2`): what the vendor's clients (its Go client, the \
                        Terraform provider, the Kubernetes operator) call. Made by the server from its registered \
                        operations; `/api/v2/docs` lists the same operations for people. Authenticate with an API key \
                        as the HTTP Basic user name (empty password) or as a Bearer token, or with an OAuth access \
                        token as a Bearer token. `{tailnet}` is `-` or this network's ID. Errors are \
                        `{"message": "..."}`. See docs/api-v2.md."""));
        document.put("servers", List.of(Map.of("url", "/")));
        document.put("security", List.of(Map.of("bearer", List.of()), Map.of("basic", List.of())));
        document.put("paths", paths);
        Map<String, Object> components = new LinkedHashMap<>();
        components.put("securitySchemes", Map.of(
                "bearer", Map.of("type", "http", "scheme", "bearer", "description",
                        "An API key or an OAuth access token; the security requirement lists the scope needed"),
                "basic", Map.of("type", "http", "scheme", "basic", "description",
                        "An API key as the user name, the password empty (what the vendor's Go client sends)")));
        components.put("responses", Map.of("Error", Map.of("description",
                "Refused; message says why (the vendor's error shape)",
                "content", Map.of("application/json", Map.of("schema", schemas.ref(Answers.Error.class, false))))));
        components.put("schemas", schemas.components);
        document.put("components", components);
        return document;
    }

    private Map<String, Object> operation(V2Routes.Operation op, Schemas schemas) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("summary", op.summary().isEmpty() ? op.method() + " " + op.path() : firstSentence(op.summary()));
        operation.put("description", op.summary());
        operation.put("operationId", operationId(op));
        List<String> scopes = op.scope().isEmpty() ? List.of() : List.of(op.scope());
        operation.put("security", op.open() ? List.of()
                : List.of(Map.of("bearer", scopes), Map.of("basic", scopes)));
        List<Object> parameters = new ArrayList<>();
        Matcher names = PATH_PARAMETER.matcher(op.path());
        while (names.find()) {
            Map<String, Object> parameter = new LinkedHashMap<>();
            parameter.put("name", names.group(1));
            parameter.put("in", "path");
            parameter.put("required", true);
            if (names.group(1).equals("tailnet")) {
                parameter.put("description", "`-` (the credential's network) or this network's ID");
                parameter.put("schema", Map.of("type", "string", "minLength", 1, "examples", List.of("-")));
            } else {
                parameter.put("schema", Map.of("type", "string", "minLength", 1));
            }
            parameters.add(parameter);
        }
        for (String query : op.contract().queries()) {
            parameters.add(Map.of("name", query, "in", "query", "required", false, "schema", Map.of("type", "string")));
        }
        if (!parameters.isEmpty()) {
            operation.put("parameters", parameters);
        }
        if (!op.contract().request().isEmpty()) {
            Map<String, Object> content = new LinkedHashMap<>();
            op.contract().request().forEach((mediaType, type) -> content.put(mediaType, Map.of("schema",
                    schemas.of(type, mediaType.equals("application/json") ? Mode.JSON_REQUEST : Mode.FORM))));
            // Policy texts may be empty (meaning the default policy, or the one in force); JSON bodies may not.
            boolean required = !op.contract().request().containsValue(String.class);
            operation.put("requestBody", Map.of("required", required, "content", content));
        }
        Map<String, Object> responses = new TreeMap<>();
        op.contract().answers().forEach((status, media) -> {
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("description", status < 300 ? "Done" : "Refused");
            if (!media.isEmpty()) {
                Map<String, Object> content = new LinkedHashMap<>();
                media.forEach((mediaType, type) -> content.put(mediaType, Map.of("schema",
                        schemas.of(type, Mode.ANSWER))));
                response.put("content", content);
            }
            responses.put(Integer.toString(status), response);
        });
        List<Integer> refusals = new ArrayList<>(List.of(400, 404));
        if (!op.open()) {
            refusals.addAll(List.of(401, 403));
        }
        if (!op.method().equals("GET")) {
            refusals.add(409);
        }
        if (!op.contract().request().isEmpty()) {
            refusals.add(413);
        }
        refusals.addAll(op.contract().refusals());
        for (int status : refusals) {
            responses.putIfAbsent(Integer.toString(status), Map.of("$ref", "#/components/responses/Error"));
        }
        operation.put("responses", responses);
        return operation;
    }

    private static String firstSentence(String summary) {
        int end = summary.indexOf(". ");
        return end < 0 ? summary : summary.substring(0, end);
    }

    /** {@code get_tailnet_devices}, {@code post_device_id_name}: unique, since method and path are. */
    private static String operationId(V2Routes.Operation op) {
        String path = op.path().substring("/api/v2/".length()).replace("{", "").replace("}", "")
                .replace("tailnet/tailnet", "tailnet");
        return op.method().toLowerCase() + "_" + path.replaceAll("[^A-Za-z0-9]+", "_");
    }

    /** How a record's fields are read into a schema: see the class comment. */
    private enum Mode { ANSWER, JSON_REQUEST, FORM }

    /** The component schemas, named after their records, made as operations refer to them. */
    private static final class Schemas {

        final Map<String, Object> components = new TreeMap<>();
        private final Map<String, Class<?>> named = new LinkedHashMap<>();

        Map<String, Object> of(Type type, Mode mode) {
            if (type instanceof AnyOf any) {
                return Map.of("anyOf", any.types().stream().map(t -> of(t, mode)).toList());
            }
            if (type instanceof ParameterizedType generic) {
                Type[] args = generic.getActualTypeArguments();
                boolean nullableItems = mode != Mode.ANSWER;
                if (generic.getRawType() == List.class) {
                    return Map.of("type", "array", "items", of(args[0], mode));
                }
                if (generic.getRawType() == Map.class) {
                    Map<String, Object> values = of(args[1], mode);
                    // A request may map a key to null (split DNS: remove the domain).
                    return Map.of("type", "object", "additionalProperties", nullableItems ? nullable(values) : values);
                }
                throw new IllegalArgumentException("no schema for " + type);
            }
            Class<?> c = (Class<?>) type;
            if (c == String.class) {
                return Map.of("type", "string");
            }
            if (c == boolean.class || c == Boolean.class) {
                return Map.of("type", "boolean");
            }
            if (c == int.class || c == Integer.class) {
                return Map.of("type", "integer", "format", "int32");
            }
            if (c == long.class || c == Long.class) {
                return Map.of("type", "integer", "format", "int64");
            }
            if (c == double.class || c == Double.class) {
                return Map.of("type", "number");
            }
            if (c == Instant.class) {
                return Map.of("type", "string", "format", "date-time");
            }
            if (c == byte[].class) {
                return Map.of("type", "string", "contentEncoding", "base64");
            }
            if (c == Object.class) {
                return Map.of();
            }
            if (c == FreeObject.class) {
                return Map.of("type", "object", "additionalProperties", true);
            }
            if (c.isRecord()) {
                return ref(c, mode);
            }
            throw new IllegalArgumentException("no schema for " + type + ": give the body a record");
        }

        Map<String, Object> ref(Class<?> record, boolean request) {
            return ref(record, request ? Mode.JSON_REQUEST : Mode.ANSWER);
        }

        private Map<String, Object> ref(Class<?> record, Mode mode) {
            String name = name(record);
            Class<?> known = named.putIfAbsent(name, record);
            if (known != null && known != record) {
                throw new IllegalStateException(name + " names both " + known + " and " + record);
            }
            if (known == null) {
                components.put(name, Map.of()); // a placeholder, so that a record that contains itself ends
                components.put(name, object(record, mode));
            }
            return Map.of("$ref", "#/components/schemas/" + name);
        }

        private Map<String, Object> object(Class<?> record, Mode mode) {
            Map<String, Object> properties = new LinkedHashMap<>();
            List<String> required = new ArrayList<>();
            for (RecordComponent component : record.getRecordComponents()) {
                Method accessor = component.getAccessor();
                JsonProperty property = accessor.getAnnotation(JsonProperty.class);
                String name = property != null && !property.value().isEmpty() ? property.value() : component.getName();
                JsonInclude include = accessor.getAnnotation(JsonInclude.class);
                JsonInclude.Include when = include == null ? null : include.value();
                Map<String, Object> schema = of(component.getGenericType(), mode);
                if (mode == Mode.ANSWER) {
                    if (when != JsonInclude.Include.NON_NULL) {
                        required.add(name);
                    }
                    properties.put(name, when == JsonInclude.Include.ALWAYS ? nullable(schema) : schema);
                } else {
                    properties.put(name, mode == Mode.JSON_REQUEST ? nullable(schema) : schema);
                }
            }
            Map<String, Object> object = new LinkedHashMap<>();
            object.put("type", "object");
            object.put("properties", properties);
            if (!required.isEmpty()) {
                object.put("required", required);
            }
            JsonIgnoreProperties ignore = record.getAnnotation(JsonIgnoreProperties.class);
            boolean open = mode == Mode.FORM || ignore != null && ignore.ignoreUnknown();
            object.put("additionalProperties", open);
            return object;
        }

        /** Answers by their record's name; request bodies end in Request (Bodies.Name is NameRequest). */
        private static String name(Class<?> record) {
            Class<?> outer = record.getEnclosingClass();
            if (outer == null || outer == Answers.class) {
                return record.getSimpleName();
            }
            if (outer == Bodies.class) {
                return record.getSimpleName() + "Request";
            }
            if (record.getSimpleName().equals("Body")) {
                return outer.getSimpleName().replace("Resource", "") + "Request";
            }
            return record.getSimpleName();
        }

        private static Map<String, Object> nullable(Map<String, Object> schema) {
            if (schema.isEmpty()) {
                return schema;
            }
            if (schema.get("type") instanceof String type) {
                Map<String, Object> copy = new LinkedHashMap<>(schema);
                copy.put("type", List.of(type, "null"));
                return copy;
            }
            return Map.of("anyOf", List.of(schema, NULL));
        }
    }
}
