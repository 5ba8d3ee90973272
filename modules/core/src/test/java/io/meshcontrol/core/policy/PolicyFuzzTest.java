package io.meshcontrol.core.policy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.code_intelligence.jazzer.mutation.annotation.WithLength;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the policy reader (HuJSON, then the policy's own checks), which takes text from the API
 * and from the policy file. The only refusal allowed is {@link PolicyException}, which the API answers with a 400;
 * anything else would be a 500. See docs/development.md, "Reliability suite".
 */
class PolicyFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void policyText(byte @NotNull @WithLength(max = 16384) [] text) {
        try {
            Policy.parse(new String(text, StandardCharsets.UTF_8));
        } catch (PolicyException refused) {
            // the documented refusal
        }
    }

    @FuzzTest(maxDuration = "5s")
    void huJson(byte @NotNull @WithLength(max = 16384) [] text) {
        String hujson = new String(text, StandardCharsets.UTF_8);
        String standard = HuJson.standardize(hujson);
        if (standard.length() != hujson.length()) {
            throw new AssertionError("offsets moved: " + hujson.length() + " chars became " + standard.length());
        }
    }
}
