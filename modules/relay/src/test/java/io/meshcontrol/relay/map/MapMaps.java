package io.meshcontrol.relay.map;

/** Small DERP maps in the vendor's JSON shape, as a map URL serves them. */
final class MapMaps {

    private MapMaps() {
    }

    /** A map with one region, {@code id}, with one node at {@code host}. */
    static String region(int id, String host) {
        return "{\"Regions\":{\"" + id + "\":{\"RegionID\":" + id + ",\"RegionCode\":\"r" + id + "\",\"RegionName\":\"R"
                + id + "\",\"Nodes\":[{\"Name\":\"" + id + "a\",\"RegionID\":" + id + ",\"HostName\":\"" + host + "\"}]}}}";
    }
}
