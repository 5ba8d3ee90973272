package io.meshcontrol.core.config;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.code_intelligence.jazzer.mutation.annotation.WithLength;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the configuration reader: a {@code config.yaml} and {@code SVC_} overrides as an operator
 * may write them. The reader reports every problem in its answer and never throws: an exception here would end
 * {@code svc serve} or {@code svc configtest} with a stack trace. See docs/development.md, "Reliability suite".
 */
class ConfigFuzzTest {

    private static final Path FOLDER = folder();
    private static final Path FILE = FOLDER.resolve("config.yaml");
    private static final List<ConfigKey> KEYS = ConfigSchema.instance().keys();

    private static Path folder() {
        try {
            Path folder = Files.createTempDirectory("config-fuzz");
            folder.toFile().deleteOnExit();
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void configFile(byte @NotNull @WithLength(max = 16384) [] yaml) throws IOException {
        Files.write(FILE, yaml);
        ConfigLoader.load(new ConfigRequest(FILE, Map.of(), FOLDER, null, FOLDER.resolve("system")));
    }

    @FuzzTest(maxDuration = "5s")
    void environmentOverride(FuzzedDataProvider data) {
        ConfigKey key = data.pickValue(KEYS);
        Map<String, String> env = Map.of(key.envName(), data.consumeRemainingAsString());
        ConfigLoader.load(new ConfigRequest(null, env, FOLDER, null, FOLDER.resolve("system")));
    }
}
