package io.meshcontrol.core.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.code_intelligence.jazzer.mutation.annotation.WithLength;
import tools.jackson.core.JacksonException;

/**
 * Coverage-guided fuzzing of the JSON a node sends inside ts2021: map and register requests. The only refusal allowed
 * is {@link JacksonException} (the control endpoints answer it with a 400); anything else would be a 500 or a dead
 * map stream. See docs/development.md, "Reliability suite".
 */
class WireRequestFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void mapRequest(byte @NotNull @WithLength(max = 8192) [] json) {
        try {
            WireJson.read(json, MapRequest.class);
        } catch (JacksonException refused) {
            // the documented refusal
        }
    }

    @FuzzTest(maxDuration = "5s")
    void registerRequest(byte @NotNull @WithLength(max = 8192) [] json) {
        try {
            WireJson.read(json, RegisterRequest.class);
        } catch (JacksonException refused) {
            // the documented refusal
        }
    }
}
