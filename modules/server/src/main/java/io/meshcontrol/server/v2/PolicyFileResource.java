package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.policy.HuJson;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.policy.PolicyPreview;
import io.meshcontrol.core.policy.PolicyTestFailure;
import io.meshcontrol.core.state.Policies;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.RawBody;
import io.meshcontrol.server.http.Reply;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The policy file ({@code mesh_acl}): HuJSON in and out, kept as written (comments included) so that what a client
 * reads back is what it wrote; JSON out when {@code Accept} asks for it. The {@code ETag} makes writes conditional
 * ({@code If-Match}, and {@code "ts-default"} for "only over the default policy"); an empty body restores the
 * default policy. Failing policy tests are reported case by case, as the vendor's clients expect.
 */
final class PolicyFileResource {

    private static final String HUJSON = "application/hujson";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * A policy in JSON, as the document shows it: an object whose sections are the policy language's (checked by
     * the policy parser, with its own messages), so the schema does not close it.
     */
    static final Type POLICY = V2OpenApi.FreeObject.class;
    /** GET's JSON answer: the policy, or with {@code details} the {@link Answers.AclDetails}. */
    static final Type POLICY_OR_DETAILS = new V2OpenApi.AnyOf(List.of(Answers.AclDetails.class, POLICY));

    private final Policies policies;

    PolicyFileResource(Policies policies) {
        this.policies = policies;
    }

    void register(V2Routes v2) {
        v2.tailnet("GET", "/acl", request -> reply(request, policies.get(request.caller())))
                .doc(Policies.READ_SCOPE, "The policy with its ETag: HuJSON as written with Accept: application/hujson, "
                        + "else JSON; details=1 answers {\"acl\":<base64 HuJSON>,\"warnings\":[],\"errors\":null}")
                .query("details").answers(200, HUJSON, String.class).answers(200, "application/json", POLICY_OR_DETAILS);
        v2.tailnet("POST", "/acl", this::set)
                .doc(Policies.WRITE_SCOPE, "Saves a policy (HuJSON or JSON); If-Match with the ETag or \"ts-default\" "
                        + "(412 when stale); an empty body restores the default policy; failing tests give 400 "
                        + "{\"message\":\"test(s) failed\",\"data\":[...]}")
                .takes(HUJSON, String.class).takes("application/json", POLICY)
                .answers(200, HUJSON, String.class).answers(200, "application/json", POLICY).refuses(412);
        v2.tailnet("POST", "/acl/validate", this::validate)
                .doc(Policies.READ_SCOPE, "Checks a policy, its tests included, without saving it (or runs a JSON "
                        + "array of tests against the policy in force): 200 with {} when valid, else 200 with "
                        + "message and data")
                .takes(HUJSON, String.class).takes("application/json", Object.class)
                .answers(Answers.PolicyProblems.class);
        v2.tailnet("POST", "/acl/preview", this::preview)
                .doc(Policies.READ_SCOPE, "The acls rules and grants of the posted policy (the one in force when the "
                        + "body is empty) that apply to type=user (as a source) or type=ipport (ip:port as a "
                        + "destination) named by previewFor: {\"matches\":[{\"users\":[...],\"ports\":[...],"
                        + "\"lineNumber\":n,\"via\":[...]}],\"type\":type,\"previewFor\":previewFor}")
                .query("type", "previewFor").takes(HUJSON, String.class).takes("application/json", POLICY)
                .answers(Answers.AclPreview.class);
    }

    /**
     * The vendor's preview: {@code {"matches":[{"users","ports","lineNumber","via"}],"type","previewFor"}}, what its
     * Go client ({@code ACLPreviewResponse}) decodes; {@code via} only for a grant that has it.
     */
    private Reply preview(ApiRequest request) {
        String type = request.query("type").orElse("");
        String previewFor = request.query("previewFor").orElse("");
        if (previewFor.isEmpty()) {
            throw MeshException.invalid("previewFor is required");
        }
        String text = text(request);
        if (text.isBlank()) {
            text = policies.get(request.caller()).policy().text();
        }
        PolicyPreview preview = policies.preview(request.caller(), text, type, previewFor);
        List<Answers.PreviewMatch> matches = preview.matches().stream().map(match -> new Answers.PreviewMatch(
                match.users(), match.ports(), match.lineNumber(), match.via().isEmpty() ? null : match.via()))
                .toList();
        return Reply.ok(new Answers.AclPreview(matches, type, previewFor));
    }

    private Reply set(ApiRequest request) {
        request.caller().require(Policies.WRITE_SCOPE);
        String text = text(request);
        if (text.isBlank()) {
            text = Policy.EMPTY.text();
        }
        List<PolicyTestFailure> failures = policies.failedTests(request.caller(), text);
        if (!failures.isEmpty()) {
            return new Reply(400, testFailures(failures), Map.of());
        }
        return reply(request, policies.set(request.caller(), text, request.header("If-Match").orElse(null)));
    }

    private Reply validate(ApiRequest request) {
        String text = text(request);
        try {
            JsonNode body = HuJson.read(text.isBlank() ? "{}" : text);
            if (body.isArray()) {
                text = withTests(policies.get(request.caller()).policy().text(), body);
            }
            List<PolicyTestFailure> failures = policies.failedTests(request.caller(), text);
            return Reply.ok(failures.isEmpty() ? new Answers.PolicyProblems(null, null) : testFailures(failures));
        } catch (MeshException e) {
            if (e.reason() != MeshException.Reason.INVALID) {
                throw e;
            }
            return Reply.ok(new Answers.PolicyProblems(e.getMessage(), null));
        } catch (PolicyException | IllegalArgumentException e) {
            return Reply.ok(new Answers.PolicyProblems(e.getMessage(), null));
        }
    }

    /** The policy in force with {@code tests} replaced: the vendor runs a posted list of tests against it. */
    private static String withTests(String policy, JsonNode tests) {
        ObjectNode merged = (ObjectNode) HuJson.read(policy);
        merged.set("tests", tests);
        return JSON.writeValueAsString(merged);
    }

    private static Answers.PolicyProblems testFailures(List<PolicyTestFailure> failures) {
        return new Answers.PolicyProblems("test(s) failed",
                failures.stream().map(f -> new Answers.TestFailure(f.source(), f.errors())).toList());
    }

    private static String text(ApiRequest request) {
        return new String(request.rawBody(), StandardCharsets.UTF_8);
    }

    /** The policy in the form {@code Accept} asks for: JSON only when asked, as the vendor answers. */
    private static Reply reply(ApiRequest request, Policies.Current current) {
        String text = current.policy().text();
        if (request.query("details").filter(v -> !v.isEmpty() && !v.equals("0") && !v.equals("false")).isPresent()) {
            // The vendor's detailed form: the text as JSON bytes (base64). A policy in force has passed every check,
            // so there are no errors; this server raises no warnings.
            return new Reply(200, new Answers.AclDetails(text.getBytes(StandardCharsets.UTF_8), List.of(), null),
                    Map.of("ETag", current.etag()));
        }
        String accept = request.header("Accept").orElse("");
        RawBody body = accept.contains("application/json") && !accept.contains(HUJSON)
                ? new RawBody("application/json", HuJson.standardize(text).getBytes(StandardCharsets.UTF_8))
                : new RawBody(HUJSON, text.getBytes(StandardCharsets.UTF_8));
        return new Reply(200, body, Map.of("ETag", current.etag()));
    }
}
