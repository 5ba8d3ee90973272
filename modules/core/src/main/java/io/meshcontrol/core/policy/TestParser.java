package io.meshcontrol.core.policy;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The {@code tests} and {@code sshTests} sections. The vendor reports most problems in a test entry as a failing
 * test rather than as a bad policy; only a few shapes of {@code sshTests} destinations are refused up front.
 */
final class TestParser {

    private TestParser() {
    }

    static List<PolicyTest> tests(List<JsonNode> entries) {
        List<PolicyTest> tests = new ArrayList<>();
        for (JsonNode entry : entries) {
            JsonNode proto = entry.path("proto");
            tests.add(new PolicyTest(PolicyParser.string(entry.path("src"), "src").orElse(""),
                    PolicyParser.present(proto) ? proto.asString() : "",
                    PolicyParser.strings(entry.path("accept"), "accept"),
                    PolicyParser.strings(entry.path("deny"), "deny")));
        }
        return List.copyOf(tests);
    }

    static List<SshTest> sshTests(List<JsonNode> entries, References refs) {
        List<SshTest> tests = new ArrayList<>();
        for (JsonNode entry : entries) {
            List<String> dst = PolicyParser.strings(entry.path("dst"), "dst");
            for (String text : dst) {
                if (text.startsWith("tag:") && !refs.tagOwners().containsKey(text)) {
                    throw new PolicyException("SSH tests dst contains unknown tag \"" + text + "\"");
                }
                if (text.contains("/") || text.startsWith(AutoGroup.PREFIX)) {
                    throw new PolicyException("SSH tests dst contains disallowed element \"" + text + "\"");
                }
            }
            tests.add(new SshTest(PolicyParser.string(entry.path("src"), "src").orElse(""), dst,
                    PolicyParser.strings(entry.path("accept"), "accept"),
                    PolicyParser.strings(entry.path("check"), "check"),
                    PolicyParser.strings(entry.path("deny"), "deny")));
        }
        return List.copyOf(tests);
    }
}
