package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The v1 JSON conventions the server and its clients share: times as ISO-8601 text, absent instead of null. */
class ApiJsonTest {

    private final JsonMapper server = ApiJson.mapper(true);
    private final JsonMapper client = ApiJson.mapper(false);

    @Test
    void aNodeRoundTripsWithIsoTimesAndWithoutNulls() {
        NodeView tagged = new NodeView("7", "n7CNTRL", "web", "web-1", null, List.of("tag:web"), "100.64.0.7",
                "fd7a:115c:a1e0::7", "mkey:ab", "nodekey:cd", true, false, false, "authkey",
                Instant.parse("2026-01-02T03:04:05Z"), false, null, null,
                new RoutesView(List.of("10.0.0.0/8"), List.of("10.0.0.0/8"), List.of(), false, 0), false, null);
        String json = server.writeValueAsString(tagged);
        assertTrue(json.contains("\"createdAt\":\"2026-01-02T03:04:05Z\""), json);
        assertFalse(json.contains("null"), "absent, not null: " + json);
        assertFalse(json.contains("\"user\""), "a tagged node has no user: " + json);
        assertEquals(tagged, client.readValue(json, NodeView.class));
    }

    @Test
    void derpSettingsWithRelaysRoundTrip() {
        DerpSettingsView settings = new DerpSettingsView(List.of("https://maps.example/derp.json"), true, "24h", true,
                "", "none", false, true, "0.0.0.0:3478", List.of(new DerpRelayView(900, "home", "relay.example.com",
                        null)), null);
        String json = server.writeValueAsString(settings);
        assertEquals(settings, server.readValue(json, DerpSettingsView.class));
        assertEquals(List.of(), settings.withRelays(List.of()).relays());
    }

    @Test
    void aProblemReadsAsTheServerWroteIt() {
        Problem problem = new Problem("about:blank", "Internal Server Error", 500, "something broke", null, "e-42");
        String json = server.writeValueAsString(problem);
        assertEquals("{\"type\":\"about:blank\",\"title\":\"Internal Server Error\",\"status\":500,"
                + "\"detail\":\"something broke\",\"errorId\":\"e-42\"}", json);
        assertEquals(problem, client.readValue(json, Problem.class));
    }

    @Test
    void theServerRefusesUnknownFieldsAndClientsIgnoreThem() {
        String newer = "{\"name\":\"odin\",\"role\":\"admin\",\"favouriteColour\":\"blue\"}";
        assertThrows(JacksonException.class, () -> server.readValue(newer, UserRequest.class),
                "a misspelt field is an error on the server");
        UserView read = client.readValue("{\"id\":\"1\",\"name\":\"odin\",\"addedLater\":true}", UserView.class);
        assertEquals("odin", read.name(), "a client reads what a newer server sends");
    }

    /** Each body has a value of another JSON type, a duplicate field or a null in a list: the server stores none. */
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"devicesKeyDurationDays\": 1.5}",
        "{\"devicesKeyDurationDays\": \"7\"}",
        "{\"devicesKeyDurationDays\": true}",
        "{\"devicesApprovalOn\": \"true\"}",
        "{\"devicesApprovalOn\": 1}",
        "{\"devicesApprovalOn\": 0.0}",
        "{\"devicesApprovalOn\": \"\"}",
        "{\"devicesApprovalOn\": false, \"devicesApprovalOn\": true}",
        "{\"devicesApprovalOn\": false} {\"devicesApprovalOn\": true}"})
    void theServerRefusesSettingsOfTheWrongJsonType(String body) {
        assertThrows(JacksonException.class, () -> server.readValue(body, SettingsView.class), body);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"name\": 12}",
        "{\"name\": 1.5}",
        "{\"name\": true}",
        "{\"name\": \"a\", \"name\": \"b\"}",
        "{\"name\": [\"a\"]}"})
    void theServerRefusesAUserOfTheWrongJsonType(String body) {
        assertThrows(JacksonException.class, () -> server.readValue(body, UserRequest.class), body);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"tags\": [null]}",
        "{\"tags\": [\"tag:a\", null]}",
        "{\"tags\": [1]}",
        "{\"tags\": \"\"}",
        "{\"tags\": \"tag:a\"}"})
    void theServerRefusesNullsAndNonStringsInLists(String body) {
        assertThrows(JacksonException.class, () -> server.readValue(body, PreAuthKeyRequest.class), body);
    }

    @Test
    void theServerRefusesANullRelayAndAFractionalRegion() {
        assertThrows(JacksonException.class, () -> server.readValue("{\"relays\": [null]}", DerpSettingsView.class));
        assertThrows(JacksonException.class, () -> server.readValue(
                "{\"relays\": [{\"regionId\": 900.5, \"code\": \"a\", \"host\": \"a.example\"}]}",
                DerpSettingsView.class));
    }

    @Test
    void theServerReadsWellTypedBodies() {
        assertEquals(new SettingsView(true, null, 7),
                server.readValue("{\"devicesApprovalOn\": true, \"devicesKeyDurationDays\": 7}", SettingsView.class));
        assertEquals(new UserRequest("odin", "", null, null),
                server.readValue("{\"name\": \"odin\", \"displayName\": \"\", \"email\": null}", UserRequest.class));
        assertEquals(List.of(), server.readValue("{\"tags\": []}", PreAuthKeyRequest.class).tags());
    }

    @Test
    void clientsStayLenientWithWhatAServerSends() {
        assertEquals(new SettingsView(true, null, 7), client.readValue(
                "{\"devicesApprovalOn\": true, \"devicesKeyDurationDays\": 7, \"addedLater\": [null, 1.5]}",
                SettingsView.class));
    }
}
