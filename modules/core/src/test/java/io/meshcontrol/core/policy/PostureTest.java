package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Posture conditions as written in {@code postures}, and the references to postures rules make. */
class PostureTest {

    private static final MachineFacts LONDON_LINUX = new MachineFacts("linux", "6.1.0", "1.80.3", "GB", "London");

    private static boolean holds(String condition, MachineFacts facts) {
        return PostureParser.condition(condition, "").satisfiedBy(facts);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ip:country == 'GB'                 | true",
        "ip:country == 'gb'                 | true",
        "ip:country != 'GB'                 | false",
        "ip:country IN ['US', 'GB']         | true",
        "ip:country NOT IN ['US', 'CA']     | true",
        "ip:country not in ['GB']           | false",
        "ip:city == 'London'                | true",
        "node:os == 'linux'                 | true",
        "node:os IN ['macos', 'windows']    | false",
        "node:tsVersion >= '1.60'           | true",
        "node:tsVersion < '1.80.4'          | true",
        "node:tsVersion > '1.80.3'          | false",
        "node:tsVersion <= '1.80'           | false",
        "ip:country IS SET                  | true",
        "ip:country NOT SET                 | false",
        "custom:managed == 'true'           | false",
        "custom:managed NOT SET             | true",
        "node:tsReleaseTrack == 'stable'    | true",
    })
    void conditionsOnAMachineInLondon(String condition, boolean expected) {
        assertEquals(expected, holds(condition, LONDON_LINUX), condition);
    }

    @Test
    void aMachineNobodyPlacesMeetsNeitherInNorNotIn() {
        MachineFacts unplaced = new MachineFacts("linux", null, "1.80.3", null, null);
        assertFalse(holds("ip:country IN ['GB']", unplaced));
        assertFalse(holds("ip:country NOT IN ['GB']", unplaced));
        assertTrue(holds("ip:country NOT SET", unplaced));
    }

    @Test
    void badConditionsAreRefusedWithThePostureNamed() {
        PolicyException noOperator = assertThrows(PolicyException.class, () -> Policy.parse("""
                {"postures": {"posture:a": ["ip:country 'GB'"]}}"""));
        assertTrue(noOperator.getMessage().startsWith("postures[\"posture:a\"]: \"ip:country 'GB'\": want"),
                noOperator.getMessage());
        assertEquals("postures[\"posture:a\"]: \"ip:country > 'GB'\": > compares versions: only node:tsVersion and"
                + " node:osVersion", assertThrows(PolicyException.class, () -> Policy.parse("""
                {"postures": {"posture:a": ["ip:country > 'GB'"]}}""")).getMessage());
        assertEquals("postures[\"posture:a\"]: \"ip:country == GB\": the value must be quoted: 'value'",
                assertThrows(PolicyException.class, () -> Policy.parse("""
                {"postures": {"posture:a": ["ip:country == GB"]}}""")).getMessage());
        assertEquals("postures[\"uk\"]: posture names must start with posture:",
                assertThrows(PolicyException.class, () -> Policy.parse("""
                {"postures": {"uk": ["ip:country == 'GB'"]}}""")).getMessage());
    }

    @Test
    void rulesMayNameOnlyDefinedPostures() {
        assertEquals("srcPosture: posture \"posture:x\" not found", assertThrows(PolicyException.class,
                () -> Policy.parse("""
                {"acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"], "srcPosture": ["posture:x"]}]}"""))
                .getMessage());
        assertEquals("defaultSrcPosture: posture \"posture:x\" not found", assertThrows(PolicyException.class,
                () -> Policy.parse("{\"defaultSrcPosture\": [\"posture:x\"]}")).getMessage());
        Policy policy = Policy.parse("""
                {"postures": {"posture:uk": ["ip:country == 'GB'"], "posture:any": ["node:os IS SET"]},
                 "defaultSrcPosture": ["posture:any"],
                 "grants": [{"src": ["*"], "dst": ["*"], "ip": ["*"], "srcPosture": ["posture:uk"]},
                            {"src": ["*"], "dst": ["*"], "ip": ["22"]}]}""");
        assertEquals(List.of("posture:uk"), policy.srcPostures(policy.grants().get(0).srcPosture()).stream()
                .map(DevicePosture::name).toList(), "a rule's own postures");
        assertEquals(List.of("posture:any"), policy.srcPostures(policy.grants().get(1).srcPosture()).stream()
                .map(DevicePosture::name).toList(), "the default for a rule without");
    }

    @Test
    void compiledSourcesAreTheMachinesThatSatisfyAPosture() {
        Policy policy = Policy.parse("""
                {"tagOwners": {"tag:db": ["autogroup:admin"]},
                 "postures": {"posture:uk": ["ip:country == 'GB'"]},
                 "grants": [{"src": ["*"], "dst": ["tag:db"], "ip": ["5432"], "srcPosture": ["posture:uk"]}]}""");
        PolicyNode london = new PolicyNode(1, "london", "n1", 1L, List.of(), "100.64.0.1", null, List.of(), false,
                LONDON_LINUX);
        PolicyNode paris = new PolicyNode(2, "paris", "n2", 1L, List.of(), "100.64.0.2", null, List.of(), false,
                LONDON_LINUX.withLocation("FR", "Paris"));
        PolicyNode db = new PolicyNode(3, "db", "n3", null, List.of("tag:db"), "100.64.0.3", null, List.of());
        CompiledPolicy compiled = CompiledPolicy.compile(policy, new PolicyInventory(
                List.of(new PolicyUser(1, "alice", "alice@example.com", io.meshcontrol.core.model.Role.MEMBER)),
                List.of(london, paris, db)), "");
        assertEquals(List.of(List.of("100.64.0.1")), compiled.packetFilter(3).stream().map(r -> r.srcIps()).toList());
        assertTrue(compiled.sees(1, 3));
        assertFalse(compiled.sees(2, 3));
    }

    @Test
    void sshRulesTakeSrcPostureToo() {
        Policy policy = Policy.parse("""
                {"tagOwners": {"tag:db": ["autogroup:admin"]},
                 "postures": {"posture:uk": ["ip:country == 'GB'"]},
                 "ssh": [{"action": "accept", "src": ["autogroup:member"], "dst": ["tag:db"], "users": ["ubuntu"],
                          "srcPosture": ["posture:uk"]}]}""");
        PolicyNode london = new PolicyNode(1, "london", "n1", 1L, List.of(), "100.64.0.1", null, List.of(), false,
                LONDON_LINUX);
        PolicyNode paris = new PolicyNode(2, "paris", "n2", 1L, List.of(), "100.64.0.2", null, List.of(), false,
                LONDON_LINUX.withLocation("FR", "Paris"));
        PolicyNode db = new PolicyNode(3, "db", "n3", null, List.of("tag:db"), "100.64.0.3", null, List.of());
        CompiledPolicy compiled = CompiledPolicy.compile(policy, new PolicyInventory(
                List.of(new PolicyUser(1, "alice", "alice@example.com", io.meshcontrol.core.model.Role.MEMBER)),
                List.of(london, paris, db)), "");
        String ssh = io.meshcontrol.core.wire.WireJson.mapper().writeValueAsString(compiled.sshPolicy(3));
        assertTrue(ssh.contains("100.64.0.1") && !ssh.contains("100.64.0.2"), ssh);
        assertEquals("srcPosture: posture \"posture:x\" not found", assertThrows(PolicyException.class,
                () -> Policy.parse("""
                {"ssh": [{"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self"],
                          "users": ["ubuntu"], "srcPosture": ["posture:x"]}]}""")).getMessage());
    }
}
