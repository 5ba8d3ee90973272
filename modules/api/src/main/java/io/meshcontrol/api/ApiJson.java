package io.meshcontrol.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

/** The JSON conventions of the v1 API: ISO-8601 times, absent instead of null. */
public final class ApiJson {

    private ApiJson() {
    }

    /**
     * @param strict refuse unknown properties (the server, so that a misspelt field is an error);
     *     clients are lenient so that a newer server can add fields
     */
    public static JsonMapper mapper(boolean strict) {
        return JsonMapper.builder()
                .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
                .configure(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS, false)
                .configure(SerializationFeature.INDENT_OUTPUT, false)
                .build();
    }
}
