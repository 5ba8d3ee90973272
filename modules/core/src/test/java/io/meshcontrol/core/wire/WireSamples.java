package io.meshcontrol.core.wire;

import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Realistic documents a control server writes, shared by the round-trip tests and the Go check. */
public final class WireSamples {

    static final Instant CREATED = Instant.parse("2026-03-01T10:15:30.123456789Z");
    static final Instant EXPIRY = Instant.parse("2026-09-01T10:15:30Z");
    static final Instant NOW = Instant.parse("2026-03-02T08:00:00.5Z");

    private WireSamples() {
    }

    static byte[] pattern(int seed) {
        byte[] raw = new byte[32];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (seed * 31 + i * 7);
        }
        return raw;
    }

    static NodePublicKey nodeKey(int seed) {
        return NodePublicKey.fromRaw(pattern(seed));
    }

    static Hostinfo hostinfo(String hostname, int peerApiPort) {
        return Hostinfo.parse("""
                {"IPNVersion":"1.102.5-t0123456789-gabcdef","BackendLogID":"0123abcd","OS":"linux",
                 "OSVersion":"6.8.0-45-generic","Distro":"ubuntu","DistroVersion":"24.04","Hostname":"%s",
                 "GoArch":"amd64","Userspace":false,
                 "Services":[{"Proto":"peerapi4","Port":%d},{"Proto":"peerapi6","Port":%d}],
                 "NetInfo":{"WorkingUDP":true,"PreferredDERP":900,"DERPLatency":{"900-v4":0.012}}}
                """.formatted(hostname, peerApiPort, peerApiPort));
    }

    static Node peer(int id) {
        Map<String, List<RawJson>> capMap = new LinkedHashMap<>();
        capMap.put("suggest-exit-node", null);
        capMap.put("https://tailscale.com/cap/file-sharing-target", List.of());
        return Node.builder()
                .id(id)
                .stableId("n" + id + "CNTRL")
                .name("host-" + id + ".tail.example.")
                .user(1 + id % 3)
                .key(nodeKey(id))
                .keyExpiry(EXPIRY)
                .machine(MachinePublicKey.fromRaw(pattern(id + 1000)))
                .discoKey(DiscoPublicKey.fromRaw(pattern(id + 2000)))
                .addresses(List.of(IpPrefix.parse("100.64." + id / 256 + "." + id % 256 + "/32"),
                        IpPrefix.parse("fd7a:115c:a1e0::" + Integer.toHexString(id) + "/128")))
                .allowedIps(List.of(IpPrefix.parse("100.64." + id / 256 + "." + id % 256 + "/32"),
                        IpPrefix.parse("fd7a:115c:a1e0::" + Integer.toHexString(id) + "/128"),
                        IpPrefix.parse("0.0.0.0/0"), IpPrefix.parse("::/0")))
                .endpoints(List.of(IpAddressPort.parse("203.0.113." + id % 250 + ":41641"),
                        IpAddressPort.parse("[2001:db8::" + Integer.toHexString(id) + "]:41641")))
                .homeDerp(900)
                .hostinfo(hostinfo("host-" + id, 40000 + id % 20000))
                .created(CREATED)
                .cap(CapabilityVersion.CURRENT - id % 30)
                .tags(id % 2 == 0 ? List.of("tag:server") : null)
                .online(id % 5 != 0)
                .lastSeen(id % 5 == 0 ? NOW : null)
                .machineAuthorized(true)
                .capMap(capMap)
                .build();
    }

    static Node self() {
        Map<String, List<RawJson>> capMap = new LinkedHashMap<>();
        capMap.put("https://tailscale.com/cap/is-admin", List.of());
        capMap.put("https://tailscale.com/cap/ssh", List.of());
        capMap.put("default-auto-update", List.of(RawJson.parse("false")));
        capMap.put("tailscale.com/app-connectors", List.of(RawJson.parse(
                "{\"name\":\"github\",\"domains\":[\"github.com\"],\"connectors\":[\"tag:connector\"]}")));
        return peer(1).toBuilder()
                .name("self.tail.example.")
                .keyExpiry(null)
                .allowedIps(null)
                .primaryRoutes(List.of(IpPrefix.parse("192.168.7.0/24")))
                .capMap(capMap)
                .build();
    }

    static DERPMap derpMap() {
        DERPNode node = DERPNode.builder().name("900a").regionId(900).hostName("derp.example.com")
                .ipv4("198.51.100.9").ipv6(DERPNode.NONE).stunPort(3478).derpPort(8443).build();
        DERPNode stunOnly = DERPNode.builder().name("900b").regionId(900).hostName("stun.example.com")
                .stunOnly(true).stunPort(DERPNode.STUN_DISABLED).canPort80(true)
                .certName("sha256-raw:00ff").insecureForTests(true).stunTestIp("127.0.0.1").build();
        Map<Integer, DERPRegion> regions = new LinkedHashMap<>();
        regions.put(900, new DERPRegion(900, "home", "Home", 52.5, 13.4, false, false, List.of(node, stunOnly)));
        regions.put(901, new DERPRegion(901, "away", "Away", 0, 0, true, true, List.of()));
        return new DERPMap(new DERPHomeParams(Map.of(900, 0.5, 901, 2.0)), regions, true);
    }

    static DNSConfig dnsConfig() {
        Map<String, List<DNSResolver>> routes = new LinkedHashMap<>();
        routes.put("corp.example.com", List.of(DNSResolver.at("10.0.0.53")));
        routes.put("tail.example", null);
        return DNSConfig.builder()
                .resolvers(List.of(DNSResolver.at("1.1.1.1"), new DNSResolver("https://dns.example/dns-query",
                        List.of(IpAddress.parse("192.0.2.53"), IpAddress.parse("2001:db8::53")), true)))
                .routes(routes)
                .fallbackResolvers(List.of(DNSResolver.at("9.9.9.9")))
                .domains(List.of("tail.example", "corp.example.com"))
                .proxied(true)
                .certDomains(List.of("self.tail.example"))
                .extraRecords(List.of(new DNSRecord("grafana.tail.example.", "", "100.64.0.9"),
                        new DNSRecord("txt.tail.example.", "TXT", "hello")))
                .exitNodeFilteredSet(List.of(".tail.example"))
                .build();
    }

    static List<FilterRule> packetFilter() {
        return List.of(
                FilterRule.allow(List.of("100.64.0.0/10", "fd7a:115c:a1e0::/48"),
                        List.of(new NetPortRange("100.64.0.1/32", null, PortRange.of(22)),
                                new NetPortRange("*", 32, new PortRange(8000, 8999)))),
                new FilterRule(List.of("100.64.0.2"), List.of(32), null, List.of(6, 17), null),
                FilterRule.grant(List.of("cap:https://tailscale.com/cap/is-admin"), List.of(new CapGrant(
                        List.of(IpPrefix.parse("100.64.0.1/32")), List.of("https://tailscale.com/cap/file-send"),
                        Map.of("tailscale.com/cap/drive", List.of(RawJson.parse(
                                "{\"shares\":[\"*\"],\"access\":\"rw\"}")))))),
                FilterRule.ALLOW_ALL);
    }

    static SSHPolicy sshPolicy() {
        SSHRecorderFailureAction onFailure = new SSHRecorderFailureAction("recorder down", "", "https://x/notify");
        SSHAction recorded = new SSHAction("welcome", false, true, Duration.ofHours(8), true, "", true, false,
                List.of(IpAddressPort.parse("100.64.0.50:80")), onFailure);
        return new SSHPolicy(List.of(
                new SSHRule(EXPIRY, List.of(SSHPrincipal.nodeIp("100.64.0.2"),
                        new SSHPrincipal("n2CNTRL", "", "", false, null)),
                        Map.of("root", "root", "*", "="), recorded, List.of("GIT_*", "LANG")),
                new SSHRule(null, List.of(new SSHPrincipal("", "", "alice@example.com", false, null)),
                        Map.of("*", "="), SSHAction.holdAndDelegate(
                                "https://mesh.example.com/machine/ssh/action/$SRC_NODE_ID/to/$DST_NODE_ID"), null),
                new SSHRule(null, List.of(SSHPrincipal.anyone()), Map.of(), SSHAction.rejectWith("no"), null)));
    }

    static List<UserProfile> userProfiles() {
        return List.of(new UserProfile(1, "alice@example.com", "Alice", "https://pics.example/a.png", null),
                new UserProfile(2, "bob@example.com", "Bob", "", List.of("group:eng")),
                new UserProfile(3, "tagged-devices", "Tagged Devices", "", null));
    }

    /** The first message of a map stream: everything the node needs. */
    public static MapResponse fullMap(int peers) {
        return fullMap(peerList(peers));
    }

    /**
     * The same full map with its peers as {@link EncodedNodes} in parts: one single peer, a block of the next ten, a
     * block of the ten after those right after it, another single peer, and the rest as a third block (at least 23
     * peers). Its zstd body is six frames: the message up to the first peer, the three blocks (each after a comma,
     * which its own frame carries), the single peer between them, and the rest of the message.
     */
    public static MapResponse fullMapInBlocks(int peers) {
        List<EncodedNodes.Encoded> encoded = peerList(peers).stream().map(EncodedNodes.Encoded::of).toList();
        return fullMap(EncodedNodes.ofParts(List.of(encoded.get(0), new EncodedNodes.Block(encoded.subList(1, 11)),
                new EncodedNodes.Block(encoded.subList(11, 21)), encoded.get(21),
                new EncodedNodes.Block(encoded.subList(22, encoded.size())))));
    }

    private static List<Node> peerList(int peers) {
        List<Node> peerList = new java.util.ArrayList<>();
        for (int id = 2; id < 2 + peers; id++) {
            peerList.add(peer(id));
        }
        return peerList;
    }

    private static MapResponse fullMap(List<Node> peerList) {
        Map<String, DisplayMessage> messages = new LinkedHashMap<>();
        messages.put("update", new DisplayMessage("Update", "A new version is out", "low", false,
                new DisplayMessage.Action("https://example.com/update", "Update now")));
        return MapResponse.builder()
                .mapSessionHandle("session-7")
                .seq(1)
                .pingRequest(new PingRequest("https://mesh.example.com/machine/ping?id=7", true, true, "c2n",
                        null, Base64Bytes.of("GET /echo HTTP/1.1\r\n\r\n".getBytes())))
                .node(self())
                .derpMap(derpMap())
                .peers(peerList)
                .dnsConfig(dnsConfig())
                .domain("tail.example")
                .collectServices(false)
                .packetFilter(packetFilter())
                .userProfiles(userProfiles())
                .health(List.of("the server needs attention"))
                .displayMessages(messages)
                .sshPolicy(sshPolicy())
                .controlTime(NOW)
                .domainDataPlaneAuditLogId("audit-id")
                .debug(new Debug(0, true, null))
                .controlDialPlan(new ControlDialPlan(List.of(
                        new ControlDialPlan.Candidate(IpAddress.parse("198.51.100.1"), "", 0, 10, 1),
                        new ControlDialPlan.Candidate(null, "ace.example.com", 0.25, 5, 0))))
                .clientVersion(ClientVersion.latest())
                .defaultAutoUpdate(true)
                .build();
    }

    /** A later message: peers changed, removed, patched, seen and online changes, named filters. */
    public static MapResponse deltaMap() {
        Map<Long, Boolean> seen = new LinkedHashMap<>();
        seen.put(3L, true);
        seen.put(12L, false);
        Map<String, List<FilterRule>> filters = new LinkedHashMap<>();
        filters.put("*", null);
        filters.put("base", List.of(FilterRule.ALLOW_ALL));
        filters.put("old", null);
        Map<String, DisplayMessage> messages = new LinkedHashMap<>();
        messages.put("*", null);
        return MapResponse.builder()
                .seq(2)
                .peersChanged(List.of(peer(4).toBuilder().homeDerp(0).legacyDerp(Node.legacyDerpString(901))
                        .online(null).build()))
                .peersRemoved(List.of(5L, 6L))
                .peersChangedPatch(List.of(
                        PeerChange.of(3).derpRegion(901).endpoints(List.of(IpAddressPort.parse("192.0.2.1:1")))
                                .online(false).lastSeen(NOW).build(),
                        PeerChange.of(7).key(nodeKey(77)).discoKey(DiscoPublicKey.fromRaw(pattern(78)))
                                .keyExpiry(EXPIRY).cap(130).keySignature(Base64Bytes.of(new byte[] {9, 8}))
                                .capMap(Map.of("funnel", List.of())).build()))
                .peerSeenChange(seen)
                .onlineChange(Map.of(8L, true, 9L, false))
                .packetFilters(filters)
                .userProfiles(List.of(new UserProfile(4, "carol@example.com", "Carol", "", null)))
                .displayMessages(messages)
                .popBrowserUrl("https://mesh.example.com/a/confirm")
                .build();
    }

    /** Empty values that Go's encoder could not write but the client reads as "present and empty". */
    static MapResponse explicitEmpty() {
        return MapResponse.builder()
                .packetFilter(List.of())
                .health(List.of())
                .peersChangedPatch(List.of(PeerChange.of(3).endpoints(List.of()).capMap(Map.of())
                        .keyExpiry(GoTime.ZERO).build()))
                .derpMap(new DERPMap(new DERPHomeParams(Map.of()), null, false))
                .build();
    }

    static RegisterResponse registered() {
        return new RegisterResponse(new RegisterResponse.User(1, "Alice", "https://pics.example/a.png", CREATED),
                new RegisterResponse.Login(1, "oidc", "alice@example.com", "Alice", ""), false, true, "",
                null, "");
    }
}
