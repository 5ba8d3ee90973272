package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.key.ChallengePublicKey;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The exact bytes Go's encoder would write for the fields that are easy to get wrong. */
class WireExactJsonTest {

    private static final String ZERO_HEX = "0".repeat(64);
    private static final NodePublicKey KEY = NodePublicKey.fromRaw(WireSamples.pattern(1));

    static Stream<Arguments> cases() {
        Map<String, List<RawJson>> capMap = new LinkedHashMap<>();
        capMap.put("suggest-exit-node", null);
        capMap.put("https://tailscale.com/cap/ssh", List.of());
        capMap.put("default-auto-update", List.of(RawJson.parse(" true ")));
        Map<String, List<FilterRule>> filters = new LinkedHashMap<>();
        filters.put("*", null);
        filters.put("base", List.of());
        return Stream.of(
                Arguments.of("keep-alive is exactly what the client caches",
                        MapResponse.KEEP_ALIVE, "{\"KeepAlive\":true}"),
                Arguments.of("a bare node writes Go's always-present fields, zero key included",
                        Node.builder().id(5).build(),
                        "{\"ID\":5,\"StableID\":\"\",\"Name\":\"\",\"User\":0,\"Key\":\"nodekey:" + ZERO_HEX
                                + "\",\"Addresses\":null}"),
                Arguments.of("zero machine and disco keys are omitted (omitzero); empty AllowedIPs is not",
                        Node.builder().id(5).key(KEY).machine(MachinePublicKey.ZERO).discoKey(DiscoPublicKey.ZERO)
                                .addresses(List.of()).allowedIps(List.of()).tags(List.of()).build(),
                        "{\"ID\":5,\"StableID\":\"\",\"Name\":\"\",\"User\":0,\"Key\":\"" + KEY.toText()
                                + "\",\"Addresses\":[],\"AllowedIPs\":[]}"),
                Arguments.of("legacy DERP string is named DERP, HomeDERP is an int, Online false is written",
                        Node.builder().id(5).legacyDerp(Node.legacyDerpString(900)).homeDerp(900).online(false)
                                .machineAuthorized(false).build(),
                        "{\"ID\":5,\"StableID\":\"\",\"Name\":\"\",\"User\":0,\"Key\":\"nodekey:" + ZERO_HEX
                                + "\",\"Addresses\":null,\"DERP\":\"127.3.3.40:900\",\"HomeDERP\":900,"
                                + "\"Online\":false}"),
                Arguments.of("CapMap: null and [] arguments both mean present; values are raw JSON, compacted",
                        Node.builder().id(5).capMap(capMap).build(),
                        "{\"ID\":5,\"StableID\":\"\",\"Name\":\"\",\"User\":0,\"Key\":\"nodekey:" + ZERO_HEX
                                + "\",\"Addresses\":null,\"CapMap\":{\"suggest-exit-node\":null,"
                                + "\"https://tailscale.com/cap/ssh\":[],\"default-auto-update\":[true]}}"),
                Arguments.of("times: RFC 3339 in UTC, fraction without trailing zeros; zero times omitted",
                        Node.builder().id(5).created(Instant.parse("2026-01-02T03:04:05.120Z"))
                                .keyExpiry(GoTime.ZERO).lastSeen(Instant.parse("2026-01-02T03:04:05.000000001Z"))
                                .build(),
                        "{\"ID\":5,\"StableID\":\"\",\"Name\":\"\",\"User\":0,\"Key\":\"nodekey:" + ZERO_HEX
                                + "\",\"Addresses\":null,\"Created\":\"2026-01-02T03:04:05.12Z\","
                                + "\"LastSeen\":\"2026-01-02T03:04:05.000000001Z\"}"),
                Arguments.of("a register request writes the zero time, zero keys and null signature as Go does",
                        new RegisterRequest(148, KEY, null, null, null, null, null, null, false, null, null, null,
                                null, null, null),
                        "{\"Version\":148,\"NodeKey\":\"" + KEY.toText() + "\",\"OldNodeKey\":\"nodekey:" + ZERO_HEX
                                + "\",\"NLKey\":\"nlpub:" + ZERO_HEX + "\",\"Expiry\":\"0001-01-01T00:00:00Z\","
                                + "\"Followup\":\"\",\"Hostinfo\":null,\"NodeKeySignature\":null}"),
                Arguments.of("a pending login writes every register response field",
                        RegisterResponse.authorizationPending("https://x/register/1"),
                        "{\"User\":{\"ID\":0,\"DisplayName\":\"\"},\"Login\":{\"ID\":0,\"Provider\":\"\","
                                + "\"LoginName\":\"\",\"DisplayName\":\"\"},\"NodeKeyExpired\":false,"
                                + "\"MachineAuthorized\":false,\"AuthURL\":\"https://x/register/1\","
                                + "\"NodeKeySignature\":null,\"Error\":\"\"}"),
                Arguments.of("server key answer is camelCase with a zero legacy key",
                        OverTLSPublicKeyResponse.noiseOnly(MachinePublicKey.fromRaw(WireSamples.pattern(1))),
                        "{\"legacyPublicKey\":\"mkey:" + ZERO_HEX + "\",\"publicKey\":\""
                                + MachinePublicKey.fromRaw(WireSamples.pattern(1)).toText() + "\"}"),
                Arguments.of("early noise is camelCase",
                        new EarlyNoise(ChallengePublicKey.ZERO), "{\"nodeKeyChallenge\":\"chalpub:" + ZERO_HEX + "\"}"),
                Arguments.of("integer map keys are decimal strings; omitDefaultRegions is camelCase",
                        new DERPMap(null, Map.of(900, new DERPRegion(900, "home", "Home", 0, 0, false, false,
                                List.of())), true),
                        "{\"Regions\":{\"900\":{\"RegionID\":900,\"RegionCode\":\"home\",\"RegionName\":\"Home\","
                                + "\"Nodes\":[]}},\"omitDefaultRegions\":true}"),
                Arguments.of("absent Regions is written as null (keep the previous regions)",
                        new DERPMap(new DERPHomeParams(Map.of(1, 1.5)), null, false),
                        "{\"HomeParams\":{\"RegionScore\":{\"1\":1.5}},\"Regions\":null}"),
                Arguments.of("DERP node: STUN disabled is -1, IPv6 none, upper-case names",
                        DERPNode.builder().name("900a").regionId(900).hostName("d").ipv6(DERPNode.NONE)
                                .stunPort(DERPNode.STUN_DISABLED).stunTestIp("127.0.0.1").build(),
                        "{\"Name\":\"900a\",\"RegionID\":900,\"HostName\":\"d\",\"IPv6\":\"none\",\"STUNPort\":-1,"
                                + "\"STUNTestIP\":\"127.0.0.1\"}"),
                Arguments.of("opt.Bool false is a value; node-id maps have decimal keys",
                        MapResponse.builder().collectServices(false).defaultAutoUpdate(true)
                                .onlineChange(Map.of(7L, false)).build(),
                        "{\"OnlineChange\":{\"7\":false},\"CollectServices\":false,\"DefaultAutoUpdate\":true}"),
                Arguments.of("empty PacketFilter and Health are written: block all, healthy",
                        MapResponse.builder().packetFilter(List.of()).health(List.of()).peers(List.of())
                                .peersChanged(List.of()).userProfiles(List.of()).build(),
                        "{\"PacketFilter\":[],\"Health\":[]}"),
                Arguments.of("named filters: null deletes, * clears",
                        MapResponse.builder().packetFilters(filters).build(),
                        "{\"PacketFilters\":{\"*\":null,\"base\":[]}}"),
                Arguments.of("allow-all rule as Go's FilterAllowAll",
                        FilterRule.ALLOW_ALL,
                        "{\"SrcIPs\":[\"*\"],\"DstPorts\":[{\"IP\":\"*\",\"Ports\":{\"First\":0,\"Last\":65535}}]}"),
                Arguments.of("peer patch: pointers in Go, so zero values are written when present",
                        PeerChange.of(3).key(NodePublicKey.ZERO).online(false).keyExpiry(GoTime.ZERO)
                                .endpoints(List.of()).build(),
                        "{\"NodeID\":3,\"Endpoints\":[],\"Key\":\"nodekey:" + ZERO_HEX
                                + "\",\"Online\":false,\"KeyExpiry\":\"0001-01-01T00:00:00Z\"}"),
                Arguments.of("SSH types are camelCase, durations are nanoseconds, failure action PascalCase",
                        new SSHPolicy(List.of(new SSHRule(null, List.of(SSHPrincipal.anyone()),
                                Map.of("*", "="), new SSHAction("", false, true, Duration.ofSeconds(2), false, "",
                                false, false, List.of(IpAddressPort.parse("[fd7a::1]:80")),
                                new SSHRecorderFailureAction("", "bye", "")), null))),
                        "{\"rules\":[{\"principals\":[{\"any\":true}],\"sshUsers\":{\"*\":\"=\"},\"action\":"
                                + "{\"accept\":true,\"sessionDuration\":2000000000,\"recorders\":[\"[fd7a::1]:80\"],"
                                + "\"onRecordingFailure\":{\"TerminateSessionWithMessage\":\"bye\"}}}]}"),
                Arguments.of("an SSH policy without rules writes rules: null as Go does",
                        new SSHPolicy(null), "{\"rules\":null}"),
                Arguments.of("Hostinfo keeps sshHostKeys and unknown fields as sent",
                        Hostinfo.parse("{\"Hostname\":\"a\", \"sshHostKeys\":[\"k\"], \"FutureField\":{\"x\":[1]}}"),
                        "{\"Hostname\":\"a\",\"sshHostKeys\":[\"k\"],\"FutureField\":{\"x\":[1]}}"),
                Arguments.of("Hostinfo built from fields omits what Go omits; opt.Bool false stays",
                        Hostinfo.of(new HostinfoFields("", "", "", "linux", "", false, "", "", "", "", "", null, "",
                                "", "", "h", false, false, false, false, false, false, false, "", "", "", "",
                                List.of(IpPrefix.parse("10.0.0.0/8")), null, List.of(), null, null,
                                List.of("ssh-ed25519 AAAA"), "", null, null, null, "", false, "", null, null, null)),
                        "{\"OS\":\"linux\",\"Container\":false,\"Hostname\":\"h\",\"RoutableIPs\":[\"10.0.0.0/8\"],"
                                + "\"sshHostKeys\":[\"ssh-ed25519 AAAA\"]}"),
                Arguments.of("bytes are standard base64 with padding",
                        new PingRequest("u", false, false, "c2n", IpAddress.parse("100.64.0.1"),
                                Base64Bytes.of(new byte[] {(byte) 0xfb, (byte) 0xff})),
                        "{\"URL\":\"u\",\"Types\":\"c2n\",\"IP\":\"100.64.0.1\",\"Payload\":\"+/8=\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesWhatGoWrites(String name, Object record, String expected) {
        assertEquals(expected, WireJson.writeString(record));
    }
}
