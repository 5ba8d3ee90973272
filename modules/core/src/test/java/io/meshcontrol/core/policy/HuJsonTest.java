package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class HuJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("{\"a\": 1, // note\n}", "{\"a\":1}"),
                Arguments.of("{/* block */ \"a\": [1, 2,],}", "{\"a\":[1,2]}"),
                Arguments.of("{\"url\": \"http://x//y\", }", "{\"url\":\"http://x//y\"}"),
                Arguments.of("{\"s\": \"a \\\" // not a comment\"}", "{\"s\":\"a \\\" // not a comment\"}"),
                Arguments.of("[1,\n // last\n]", "[1]"),
                Arguments.of("{\"a\": [/* x */], \"b\": {},}", "{\"a\":[],\"b\":{}}"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void commentsAndTrailingCommasGoStringsStay(String hujson, String json) {
        assertEquals(JSON.readTree(json), JSON.readTree(HuJson.standardize(hujson)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void offsetsAreKept(String hujson, String json) {
        assertEquals(hujson.length(), HuJson.standardize(hujson).length());
    }
}
