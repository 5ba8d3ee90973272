package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.net.IpPrefix;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A client's Hostinfo reaches peers as the client sent it; the server reads the fields it knows. */
class WireHostinfoTest {

    private static final String FROM_NEWER_CLIENT = "{\"OS\":\"linux\",\"Hostname\":\"laptop\","
            + "\"RoutableIPs\":[\"192.168.7.0/24\",\"0.0.0.0/0\",\"::/0\"],\"RequestTags\":[\"tag:server\"],"
            + "\"Services\":[{\"Proto\":\"peerapi4\",\"Port\":41641}],\"Container\":false,"
            + "\"NetInfo\":{\"PreferredDERP\":900,\"WorkingUDP\":true,\"NewNetInfoField\":1},"
            + "\"Location\":{\"Country\":\"Canada\",\"Latitude\":49.7,\"Priority\":10},"
            + "\"NewField\":{\"nested\":[1,\"two\",null]},\"AnotherNew\":0.50}";

    @Test
    void unknownFieldsReachPeersUnchanged() {
        MapRequest request = WireJson.read("{\"Hostinfo\":" + FROM_NEWER_CLIENT + "}", MapRequest.class);
        Node peer = Node.builder().id(2).hostinfo(request.hostinfo()).build();
        String written = WireJson.writeString(MapResponse.builder().peers(List.of(peer)).build());
        JsonNode sentToPeers = WireJson.mapper().readTree(written).get("Peers").get(0).get("Hostinfo");
        assertEquals(FROM_NEWER_CLIENT, WireJson.mapper().writeValueAsString(sentToPeers));
        assertEquals(request.hostinfo(), WireJson.read(written, MapResponse.class).peers().get(0).hostinfo());
    }

    @Test
    void knownFieldsAreTyped() {
        HostinfoFields fields = Hostinfo.parse(FROM_NEWER_CLIENT).fields();
        assertEquals("laptop", fields.hostname());
        assertEquals(List.of(IpPrefix.parse("192.168.7.0/24"), IpPrefix.parse("0.0.0.0/0"), IpPrefix.parse("::/0")),
                fields.routableIps());
        assertEquals(List.of("tag:server"), fields.requestTags());
        assertEquals(new Service("peerapi4", 41641, ""), fields.services().get(0));
        assertEquals(900, fields.netInfo().preferredDerp());
        assertEquals(Boolean.TRUE, fields.netInfo().workingUdp());
        assertNull(fields.netInfo().workingIpv6());
        assertEquals(Boolean.FALSE, fields.container());
        assertEquals(10, fields.location().priority());
        assertEquals("", fields.osVersion());
    }

    @Test
    void netInfoIsKeptWhenAnUpdateLeavesItOut() {
        Hostinfo before = Hostinfo.parse(FROM_NEWER_CLIENT);
        Hostinfo update = Hostinfo.parse("{\"OS\":\"linux\",\"Hostname\":\"renamed\"}");
        Hostinfo merged = update.withNetInfoFrom(() -> before);
        assertEquals("renamed", merged.fields().hostname());
        assertEquals(900, merged.fields().netInfo().preferredDerp());
        assertEquals(1, merged.toTree().get("NetInfo").get("NewNetInfoField").asInt());
        assertSame(before, before.withNetInfoFrom(() -> {
            throw new AssertionError("an update with its own NetInfo needs no previous one");
        }));
    }

    @Test
    void controlCanAddAndRemoveFields() {
        Hostinfo hostinfo = Hostinfo.parse("{\"Hostname\":\"exit\"}")
                .with("Location", new Location("Germany", "DE", "Berlin", "BER", 52.5, 13.4, 5))
                .without("Hostname");
        assertEquals("{\"Location\":{\"Country\":\"Germany\",\"CountryCode\":\"DE\",\"City\":\"Berlin\","
                + "\"CityCode\":\"BER\",\"Latitude\":52.5,\"Longitude\":13.4,\"Priority\":5}}", hostinfo.toJson());
        assertEquals(5, hostinfo.fields().location().priority());
    }

    @Test
    void onlyAnObjectIsAHostinfo() {
        assertThrows(IllegalArgumentException.class, () -> Hostinfo.parse("[]"));
        assertThrows(IllegalArgumentException.class, () -> Hostinfo.parse("null"));
    }
}
