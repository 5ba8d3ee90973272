package io.meshcontrol.relay.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The map-file rules: format by extension, null removes, scores merge with later files winning, empty files fail. */
class DerpMapFileTest {

    @TempDir
    Path folder;

    private Path file(String name, String text) throws Exception {
        Path path = folder.resolve(name);
        Files.writeString(path, text);
        return path;
    }

    private static final String YAML_900 = """
            regions:
              900:
                regionid: 900
                regioncode: home
                regionname: Home relay
                nodes:
                  - name: 900a
                    regionid: 900
                    hostname: derp.home.example
                    ipv4: 192.0.2.10
                    ipv6: "2001:db8::10"
                    canport80: true
            """;

    @Test
    void yamlFileUsesLowercaseFieldNames() throws Exception {
        MapLayer layer = DerpMapFile.read(file("home.yaml", YAML_900));
        DERPNode node = layer.regions().get(900).nodes().getFirst();
        assertEquals("home", layer.regions().get(900).regionCode());
        assertEquals("Home relay", layer.regions().get(900).regionName());
        assertEquals("derp.home.example", node.hostName());
        assertEquals("192.0.2.10", node.ipv4());
        assertEquals("2001:db8::10", node.ipv6());
        assertTrue(node.canPort80());
        assertEquals(900, DerpMapFile.read(file("same.yml", YAML_900)).regions().get(900).regionId());
    }

    @Test
    void jsonAndHujsonFilesUseTheVendorShape() throws Exception {
        String json = """
                {"Regions": {"901": {"RegionID": 901, "RegionCode": "b", "RegionName": "B",
                  "Nodes": [{"Name": "901a", "RegionID": 901, "HostName": "derp.b.example", "DERPPort": 8443}]}}}
                """;
        assertEquals(8443, DerpMapFile.read(file("b.json", json)).regions().get(901).nodes().getFirst().derpPort());
        String hujson = """
                {
                  // the vendor's shape, with comments and trailing commas
                  "Regions": {"902": {"RegionID": 902, "RegionCode": "c", "RegionName": "C",
                    "Nodes": [{"Name": "902a", "RegionID": 902, "HostName": "derp.c.example",},],},},
                }
                """;
        assertEquals("derp.c.example",
                DerpMapFile.read(file("c.hujson", hujson)).regions().get(902).nodes().getFirst().hostName());
    }

    @Test
    void otherExtensionsAreRefused() throws Exception {
        MapSourceException e = assertThrows(MapSourceException.class, () -> DerpMapFile.read(file("map.txt", YAML_900)));
        assertTrue(e.getMessage().contains("map.txt"), e.getMessage());
    }

    @Test
    void nullRegionRemovesItFromEarlierMaps() throws Exception {
        MapLayer base = DerpMapFile.read(file("base.yaml", YAML_900));
        MapLayer remove = DerpMapFile.read(file("remove.json", "{\"Regions\": {\"900\": null}}"));
        assertEquals(Map.of(), DerpMapMerge.merge(List.of(base, remove)).regions());
        assertEquals(List.of(900), List.copyOf(DerpMapMerge.merge(List.of(remove, base)).regions().keySet()),
                "a later file adds it back");
    }

    @Test
    void laterFilesReplaceRegionsOfTheSameId() throws Exception {
        MapLayer first = DerpMapFile.read(file("first.yaml", YAML_900));
        MapLayer second = DerpMapFile.read(file("second.yaml", YAML_900.replace("derp.home.example", "derp2.example")));
        assertEquals("derp2.example",
                DerpMapMerge.merge(List.of(first, second)).regions().get(900).nodes().getFirst().hostName());
    }

    @Test
    void scoresMergeLaterFilesWinningAndNonPositiveScoresAreIgnored() throws Exception {
        MapLayer a = DerpMapFile.read(file("a.yaml", """
                homeparams:
                  regionscore:
                    900: 0.5
                    901: 2.0
                """));
        MapLayer b = DerpMapFile.read(file("b.json", """
                {"HomeParams": {"RegionScore": {"901": 1.5, "902": 0, "903": -1, "904": 0.8}}}
                """));
        DERPMap merged = DerpMapMerge.merge(List.of(a, b));
        assertEquals(Map.of(900, 0.5, 901, 1.5, 904, 0.8), merged.homeParams().regionScore());
    }

    @Test
    void fileThatChangesNothingFailsNamingTheFile() throws Exception {
        for (String text : new String[] {"{}", "{\"Regions\": {}}", "{\"HomeParams\": {\"RegionScore\": {\"900\": 0}}}",
                "{\"regoins\": {\"900\": null}}"}) {
            Path path = file("empty.json", text);
            MapSourceException e = assertThrows(MapSourceException.class, () -> DerpMapFile.read(path), text);
            assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("adds no region"),
                    e.getMessage());
        }
        Path yaml = file("empty.yaml", "# nothing here\n");
        String message = assertThrows(MapSourceException.class, () -> DerpMapFile.read(yaml)).getMessage();
        assertTrue(message.contains("empty.yaml") && message.contains("adds no region"), message);
    }

    @Test
    void malformedFilesFailNamingTheFile() throws Exception {
        Path broken = file("broken.json", "{\"Regions\": ");
        assertTrue(assertThrows(MapSourceException.class, () -> DerpMapFile.read(broken)).getMessage()
                .contains("broken.json"));
        Path badId = file("bad.yaml", "regions:\n  abc: null\n");
        assertTrue(assertThrows(MapSourceException.class, () -> DerpMapFile.read(badId)).getMessage()
                .contains("\"abc\""));
        Path noNodes = file("nonodes.yaml", "regions:\n  900:\n    regioncode: x\n");
        assertTrue(assertThrows(MapSourceException.class, () -> DerpMapFile.read(noNodes)).getMessage()
                .contains("no nodes"));
    }

    @Test
    void missingFileFailsNamingIt() {
        Path missing = folder.resolve("missing.yaml");
        assertTrue(assertThrows(MapSourceException.class, () -> DerpMapFile.read(missing)).getMessage()
                .contains("missing.yaml"));
        assertFalse(Files.exists(missing));
    }
}
