package io.meshcontrol.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.wire.CapGrant;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.NetPortRange;
import io.meshcontrol.core.wire.PortRange;
import io.meshcontrol.core.wire.RawJson;
import io.meshcontrol.core.wire.SSHAction;
import io.meshcontrol.core.wire.SSHPrincipal;
import io.meshcontrol.core.wire.SSHRecorderFailureAction;
import io.meshcontrol.core.wire.SSHRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Compilation per node, element by element, in the wire form the vendor's control plane sends (observed from its
 * maps): packet filters with routes and capability grants, peers, SSH policies and capabilities.
 */
class CompiledPolicyTest {

    private static final List<String> EVERY_NODE = List.of("100.115.94.0-100.127.255.255", "100.64.0.0-100.115.91.255",
            "fd7a:115c:a1e0::/48");
    private static final String DEFS = "'groups': {'group:dev': ['alice@example.com', 'bob@example.com']},"
            + " 'tagOwners': {'tag:server': [], 'tag:router': [], 'tag:exit': [], 'tag:db': []},"
            + " 'hosts': {'office': '10.1.0.0/16', 'nas': '100.64.0.4'}";

    private final List<PolicyUser> users = new ArrayList<>(List.of(
            new PolicyUser(1, "alice", "alice@example.com", Role.OWNER),
            new PolicyUser(2, "bob", "bob@example.com", Role.MEMBER),
            new PolicyUser(3, "carol", "carol@other.example", Role.ADMIN)));
    private final List<PolicyNode> nodes = new ArrayList<>();
    private final Map<String, Long> ids = new HashMap<>();

    CompiledPolicyTest() {
        node("alice-laptop", 1L, List.of(), List.of());
        node("alice-phone", 1L, List.of(), List.of());
        node("bob-laptop", 2L, List.of(), List.of());
        node("server", null, List.of("tag:server"), List.of());
        node("router", null, List.of("tag:router"), List.of("10.0.0.0/8"));
        node("exit", null, List.of("tag:exit"), List.of("0.0.0.0/0", "::/0"));
        node("carol-laptop", 3L, List.of(), List.of());
    }

    private void node(String name, Long user, List<String> tags, List<String> routes) {
        int n = nodes.size() + 1;
        nodes.add(new PolicyNode(n, name, "n" + n, user, tags, "100.64.0." + n, "fd7a:115c:a1e0::" + n, routes));
        ids.put(name, (long) n);
    }

    private CompiledPolicy compile(String sections) {
        Policy policy = Policy.parse(("{" + DEFS + ", " + sections + "}").replace('\'', '"'));
        return CompiledPolicy.compile(policy, new PolicyInventory(users, nodes), "https://control.example");
    }

    private long id(String name) {
        return ids.get(name);
    }

    private static List<String> ips(String name, CompiledPolicyTest test) {
        long n = test.id(name);
        return List.of("100.64.0." + n, "fd7a:115c:a1e0::" + n);
    }

    private static List<NetPortRange> ports(List<String> addresses, PortRange... ranges) {
        List<NetPortRange> out = new ArrayList<>();
        for (String address : addresses) {
            for (PortRange range : ranges) {
                out.add(new NetPortRange(address, null, range));
            }
        }
        return out;
    }

    private List<String> peers(CompiledPolicy compiled, String name) {
        Map<Long, String> names = new HashMap<>();
        ids.forEach((k, v) -> names.put(v, k));
        return compiled.peers(id(name)).stream().map(names::get).sorted().toList();
    }

    @Test
    void anAclGivesTheDestinationAFilterAndBothSidesVisibility() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server:22,443']}]");
        assertEquals(List.of(FilterRule.allow(List.of("100.64.0.1", "100.64.0.2", "100.64.0.3", "fd7a:115c:a1e0::1",
                "fd7a:115c:a1e0::2", "fd7a:115c:a1e0::3"),
                ports(ips("server", this), PortRange.of(22), PortRange.of(443)))), compiled.packetFilter(id("server")),
                "sources sorted as text; destinations address by address, then port by port");
        assertEquals(List.of("alice-laptop", "alice-phone", "bob-laptop"), peers(compiled, "server"));
        assertEquals(List.of("server"), peers(compiled, "alice-laptop"));
        assertEquals(List.of(), compiled.packetFilter(id("alice-laptop")));
        assertEquals(List.of(), peers(compiled, "carol-laptop"));
        assertFalse(compiled.sees(id("alice-laptop"), id("alice-phone")));
    }

    @Test
    void samePeersTellsWhetherAPolicyChangeLeftWhomAMachineSeesAsItWas() {
        CompiledPolicy before = compile("'acls': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server:22']}]");
        CompiledPolicy otherPorts = compile("'acls': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server:22,443']}]");
        assertTrue(otherPorts.samePeers(id("alice-laptop"), before), "other ports, the same peers");
        assertTrue(otherPorts.samePeers(id("carol-laptop"), before), "no peers before or after");
        assertTrue(before.samePeers(id("server"), before));

        CompiledPolicy carolToo = compile("'acls': [{'action': 'accept', 'src': ['group:dev', 'carol@other.example'],"
                + " 'dst': ['tag:server:22']}]");
        assertFalse(carolToo.samePeers(id("carol-laptop"), before), "carol now sees the server");
        assertFalse(carolToo.samePeers(id("server"), before), "and the server carol");
        assertTrue(carolToo.samePeers(id("alice-laptop"), before), "alice's peers are as they were");

        node("dave-laptop", 2L, List.of(), List.of());
        CompiledPolicy moreMachines = compile("'acls': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server:22']}]");
        assertFalse(moreMachines.samePeers(id("carol-laptop"), before), "other machines: never taken as the same");
        assertFalse(moreMachines.samePeers(99, moreMachines.withAppended(List.of())), "an unknown machine");
    }

    @Test
    void seenByNamesTheMachinesThatSeeAnyOfSomeAndGivesUpAboveTheLimit() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server:22']}]");
        java.util.Set<Long> expected = new java.util.HashSet<>(compiled.peers(id("server")));
        long[] viewers = compiled.seenBy(List.of(id("server")), 100);
        assertEquals(expected, java.util.Arrays.stream(viewers).boxed().collect(java.util.stream.Collectors.toSet()),
                "the server's peers: whoever sees it");
        assertTrue(expected.contains(id("alice-laptop")));
        assertEquals(0, compiled.seenBy(List.of(id("carol-laptop"), 99L), 100).length, "no one sees carol's laptop");
        assertEquals(null, compiled.seenBy(List.of(id("server")), expected.size() - 1), "more than the limit");
    }

    @Test
    void whatAMachineMayReachIsReadFromTheFiltersThatLetItIn() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['bob@example.com'],"
                + " 'dst': ['tag:server:22', 'office:80']}, {'action': 'accept', 'src': ['*'], 'dst': ['nas:443']}]");
        Map<Long, String> names = new HashMap<>();
        ids.forEach((name, id) -> names.put(id, name));
        assertEquals(List.of("server " + compiled.packetFilter(id("server")), "router " + compiled.packetFilter(id("router"))),
                compiled.reachableFrom(id("bob-laptop")).stream().map(reachable -> names.get(reachable.nodeId()) + " " + reachable.rules()).toList(),
                "the server (on 22 as bob, on 443 as anyone) and the router for the office subnet on 80");
        assertEquals(List.of(), compiled.reachableFrom(id("server")), "the server reaches no one");
        assertEquals(List.of(), compiled.reachableFrom(99), "an unknown machine reaches nothing");

        CompiledPolicy open = compile("'ssh': []");
        assertEquals(6, open.reachableFrom(id("server")).size(), "the allow-all filter's address ranges let it in");
    }

    @Test
    void withoutAclsOrGrantsEverythingIsAllowedAsTheVendorWritesIt() {
        CompiledPolicy compiled = compile("'ssh': []");
        List<String> sources = new ArrayList<>(List.of("10.0.0.0/8"));
        sources.addAll(EVERY_NODE);
        assertEquals(List.of(FilterRule.allow(sources.stream().sorted().toList(), List.of(NetPortRange.any("*")))),
                compiled.packetFilter(id("server")), "every node range and every approved subnet, but no exit route");
        assertEquals(6, compiled.peers(id("server")).size());
    }

    @Test
    void aSubnetRouterGetsTheRulesForItsRoutesAndIsSeenByTheirSources() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['bob@example.com'], 'dst': ['office:80']}]");
        assertEquals(List.of(FilterRule.allow(ips("bob-laptop", this), ports(List.of("10.1.0.0/16"), PortRange.of(80)))),
                compiled.packetFilter(id("router")), "the destination as the policy writes it");
        assertEquals(List.of("router"), peers(compiled, "bob-laptop"));
        assertEquals(List.of("10.0.0.0/8"), compiled.peerRoutes(id("bob-laptop"), id("router")));
        assertEquals(List.of(), compiled.peerRoutes(id("alice-laptop"), id("router")));
        assertEquals(List.of(), compiled.packetFilter(id("exit")), "10.1.0.0/16 is no internet");
    }

    @Test
    void autogroupInternetTargetsExitNodesWithThePublicRanges() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['alice@example.com'],"
                + " 'dst': ['autogroup:internet:*']}]");
        List<NetPortRange> internet = List.of("0.0.0.0-9.255.255.255", "11.0.0.0-100.63.255.255",
                "100.128.0.0-169.253.255.255", "169.255.0.0-172.15.255.255", "172.32.0.0-192.167.255.255",
                "192.169.0.0-255.255.255.255", "2000::-3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").stream()
                .map(NetPortRange::any).toList();
        assertEquals(List.of(FilterRule.allow(List.of("100.64.0.1", "100.64.0.2", "fd7a:115c:a1e0::1",
                "fd7a:115c:a1e0::2"), internet)), compiled.packetFilter(id("exit")));
        assertEquals(List.of(), compiled.packetFilter(id("router")));
        assertEquals(List.of("exit"), peers(compiled, "alice-phone"));
        assertEquals(List.of("0.0.0.0/0", "::/0"), compiled.peerRoutes(id("alice-phone"), id("exit")));
        assertEquals(List.of(), peers(compiled, "bob-laptop"));
    }

    @Test
    void anAppConnectorsPublicRoutesGoToMachinesThatMayReachTheInternetThroughIt() {
        nodes.add(new PolicyNode(8, "connector", "n8", null, List.of("tag:server"), "100.64.0.8", "fd7a:115c:a1e0::8",
                List.of("10.50.0.0/24", "140.82.112.3/32", "2606:50c0::1/128"), true));
        ids.put("connector", 8L);
        nodes.add(new PolicyNode(9, "public-router", "n9", null, List.of("tag:server"), "100.64.0.9",
                "fd7a:115c:a1e0::9", List.of("198.51.100.0/24")));
        ids.put("public-router", 9L);
        // The policy docs/apps.md documents: members reach the internet and the connectors themselves.
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['alice@example.com'],"
                + " 'dst': ['autogroup:internet:*']}, {'action': 'accept', 'src': ['alice@example.com'],"
                + " 'dst': ['tag:server:*']}]");
        assertEquals(List.of("140.82.112.3/32", "2606:50c0::1/128"),
                compiled.peerRoutes(id("alice-laptop"), id("connector")),
                "the learned addresses, not the private static route that no rule names");
        assertEquals(List.of(), compiled.peerRoutes(id("alice-laptop"), id("public-router")),
                "a plain subnet router carries no internet traffic");
        assertEquals(List.of(), compiled.peerRoutes(id("bob-laptop"), id("connector")), "bob may not reach the internet");
    }

    @Test
    void grantsGroupTheirIpEntriesByProtocolAndComeBeforeAcls() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['carol@other.example'], 'dst': ['tag:server:22']}],"
                + " 'grants': [{'src': ['bob@example.com'], 'dst': ['tag:server'], 'ip': ['tcp:80', 'udp:53', 'tcp:443']}]");
        assertEquals(List.of(
                new FilterRule(ips("bob-laptop", this), null, ports(ips("server", this), PortRange.of(80), PortRange.of(443)),
                        List.of(Protocols.TCP), null),
                new FilterRule(ips("bob-laptop", this), null, ports(ips("server", this), PortRange.of(53)),
                        List.of(Protocols.UDP), null),
                FilterRule.allow(ips("carol-laptop", this), ports(ips("server", this), PortRange.of(22)))),
                compiled.packetFilter(id("server")));
    }

    @Test
    void rulesWithTheSameSourcesMergeWhereTheFirstOneStands() {
        CompiledPolicy compiled = compile("'acls': ["
                + "{'action': 'accept', 'src': ['bob@example.com'], 'dst': ['tag:server:22']},"
                + "{'action': 'accept', 'src': ['carol@other.example'], 'dst': ['tag:server:80']},"
                + "{'action': 'accept', 'src': ['bob@example.com'], 'dst': ['tag:server:443']}]");
        List<NetPortRange> bobs = new ArrayList<>(ports(ips("server", this), PortRange.of(22)));
        bobs.addAll(ports(ips("server", this), PortRange.of(443)));
        assertEquals(List.of(FilterRule.allow(ips("bob-laptop", this), bobs),
                FilterRule.allow(ips("carol-laptop", this), ports(ips("server", this), PortRange.of(80)))),
                compiled.packetFilter(id("server")));
    }

    @Test
    void viaLimitsARouteToRoutersWithTheTag() {
        nodes.add(new PolicyNode(8, "router2", "n8", null, List.of("tag:db"), "100.64.0.8", "fd7a:115c:a1e0::8",
                List.of("10.1.0.0/16")));
        ids.put("router2", 8L);
        CompiledPolicy compiled = compile("'grants': [{'src': ['bob@example.com'], 'dst': ['office'], 'ip': ['*'],"
                + " 'via': ['tag:router']}]");
        assertEquals(List.of(FilterRule.allow(ips("bob-laptop", this), ports(List.of("10.1.0.0/16"), PortRange.ANY))),
                compiled.packetFilter(id("router")));
        assertEquals(List.of(), compiled.packetFilter(id("router2")), "serves the subnet, but not via that tag");
        assertEquals(List.of("router"), peers(compiled, "bob-laptop"));
        assertEquals(List.of(), compiled.peerRoutes(id("bob-laptop"), id("router2")));
    }

    @Test
    void appGrantsBecomeCapabilityGrantsAndTaildriveAnswersWithSharer() {
        CompiledPolicy compiled = compile("'grants': [{'src': ['bob@example.com'], 'dst': ['tag:server'],"
                + " 'app': {'tailscale.com/cap/drive': [{'shares': ['docs'], 'access': 'ro'}]}}]");
        List<IpPrefix> server = List.of(IpPrefix.parse("100.64.0.4/32"), IpPrefix.parse("fd7a:115c:a1e0::4/128"));
        assertEquals(List.of(FilterRule.grant(ips("bob-laptop", this), List.of(new CapGrant(server, null,
                Map.of("tailscale.com/cap/drive", List.of(RawJson.parse("{\"shares\":[\"docs\"],\"access\":\"ro\"}"))))))),
                compiled.packetFilter(id("server")));
        Map<String, List<RawJson>> sharer = new HashMap<>();
        sharer.put("tailscale.com/cap/drive-sharer", null);
        List<IpPrefix> bob = List.of(IpPrefix.parse("100.64.0.3/32"), IpPrefix.parse("fd7a:115c:a1e0::3/128"));
        assertEquals(List.of(FilterRule.grant(ips("server", this), List.of(new CapGrant(bob, null, sharer)))),
                compiled.packetFilter(id("bob-laptop")), "the server may share back");
        assertTrue(compiled.sees(id("bob-laptop"), id("server")), "a capability grant makes peers too");
    }

    @Test
    void autogroupSelfLetsOnlyTheSameUsersMachinesIn() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['autogroup:member'],"
                + " 'dst': ['autogroup:self:*']}]");
        assertEquals(List.of(FilterRule.allow(List.of("100.64.0.1", "100.64.0.2", "fd7a:115c:a1e0::1", "fd7a:115c:a1e0::2"),
                ports(ips("alice-phone", this), PortRange.ANY))), compiled.packetFilter(id("alice-phone")));
        assertEquals(List.of("alice-phone"), peers(compiled, "alice-laptop"));
        assertEquals(List.of(), peers(compiled, "bob-laptop"));
        assertEquals(List.of(), compiled.packetFilter(id("server")));
    }

    @Test
    void roleAutogroupsAndDomainsSelectUsers() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['autogroup:admin'], 'dst': ['tag:server:22']},"
                + " {'action': 'accept', 'src': ['autogroup:owner'], 'dst': ['tag:server:80']}]");
        assertEquals(List.of(
                FilterRule.allow(List.of("100.64.0.1", "100.64.0.2", "100.64.0.7", "fd7a:115c:a1e0::1",
                        "fd7a:115c:a1e0::2", "fd7a:115c:a1e0::7"), ports(ips("server", this), PortRange.of(22))),
                FilterRule.allow(List.of("100.64.0.1", "100.64.0.2", "fd7a:115c:a1e0::1", "fd7a:115c:a1e0::2"),
                        ports(ips("server", this), PortRange.of(80)))),
                compiled.packetFilter(id("server")), "admin includes the owner");
    }

    @Test
    void addressesAndHostsStayAsWrittenAndIpv6Works() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['fd7a:115c:a1e0::3/128', '192.0.2.0/24'],"
                + " 'dst': ['nas:5432', 'fd7a:115c:a1e0::4:22']}]");
        assertEquals(List.of(FilterRule.allow(List.of("192.0.2.0/24", "fd7a:115c:a1e0::3"),
                List.of(new NetPortRange("100.64.0.4", null, PortRange.of(5432)),
                        new NetPortRange("fd7a:115c:a1e0::4", null, PortRange.of(22))))),
                compiled.packetFilter(id("server")), "a single-address prefix is written as the address");
        assertTrue(compiled.sees(id("bob-laptop"), id("server")));
    }

    @Test
    void sshCheckPeriodIsTheFirstRuleThatLetsTheSourceInWhenItIsACheck() {
        CompiledPolicy compiled = compile("'ssh': ["
                + "{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['root', 'ubuntu']},"
                + "{'action': 'check', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['root'],"
                + " 'checkPeriod': '2h'},"
                + "{'action': 'check', 'src': ['autogroup:member'], 'dst': ['autogroup:self'],"
                + " 'users': ['autogroup:nonroot']}]");
        long server = id("server");
        assertEquals(Optional.of(Duration.ofHours(2)), compiled.sshCheckPeriod(id("alice-laptop"), server, "root"),
                "check rules come before accept rules");
        assertEquals(Optional.empty(), compiled.sshCheckPeriod(id("alice-laptop"), server, "ubuntu"),
                "accepted outright");
        assertEquals(Optional.empty(), compiled.sshCheckPeriod(id("carol-laptop"), server, "root"), "no rule");
        assertEquals(Optional.of(Duration.ofHours(12)),
                compiled.sshCheckPeriod(id("alice-laptop"), id("alice-phone"), "alice"), "the vendor's default");
        assertEquals(Optional.empty(), compiled.sshCheckPeriod(id("alice-laptop"), id("alice-phone"), "root"),
                "nonroot is not root");
        assertEquals(Optional.empty(), compiled.sshCheckPeriod(id("bob-laptop"), id("alice-phone"), "bob"),
                "autogroup:self is the source owner's own machines");
    }

    @Test
    void sshRulesGoToTheirDestinationsCheckFirst() {
        CompiledPolicy compiled = compile("'ssh': ["
                + "{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['ubuntu', 'autogroup:nonroot']},"
                + "{'action': 'check', 'src': ['carol@other.example'], 'dst': ['tag:server'], 'users': ['root'],"
                + " 'acceptEnv': ['GIT_*']}]");
        List<SSHRule> rules = compiled.sshPolicy(id("server")).rules();
        assertEquals(2, rules.size());
        assertEquals(new SSHRule(null, List.of(SSHPrincipal.nodeIp("100.64.0.7"), SSHPrincipal.nodeIp("fd7a:115c:a1e0::7")),
                Map.of("root", "root"), SSHAction.holdAndDelegate("https://control.example/machine/ssh/action/"
                        + "$SRC_NODE_ID/to/$DST_NODE_ID?local_user=$LOCAL_USER"), List.of("GIT_*")), rules.get(0));
        Map<String, String> users = new LinkedHashMap<>();
        users.put("ubuntu", "ubuntu");
        users.put("*", "=");
        users.put("root", "");
        assertEquals(users, rules.get(1).sshUsers(), "root is refused unless listed");
        assertEquals(SSHAction.acceptWithForwarding(), rules.get(1).action());
        assertEquals(6, rules.get(1).principals().size());
        assertEquals(List.of(), compiled.sshPolicy(id("alice-laptop")).rules());
    }

    @Test
    void sshRecordersGoIntoTheActionWithTheFailureRuleOfEnforceRecorderAndTheReportUrl() {
        CompiledPolicy compiled = compile("'ssh': ["
                + "{'action': 'check', 'src': ['carol@other.example'], 'dst': ['tag:server'], 'users': ['root'],"
                + " 'recorder': ['tag:router'], 'enforceRecorder': true},"
                + "{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['ubuntu'],"
                + " 'recorder': ['tag:router']}]");
        List<SSHRule> rules = compiled.sshPolicy(id("server")).rules();
        List<IpAddressPort> recorders = List.of(IpAddressPort.parse("100.64.0.5:80"),
                IpAddressPort.parse("[fd7a:115c:a1e0::5]:80"));
        SSHAction enforced = rules.get(0).action();
        assertEquals(recorders, enforced.recorders());
        assertTrue(enforced.holdAndDelegate().contains("/machine/ssh/action/"), "still a check");
        assertFalse(enforced.onRecordingFailure().rejectSessionWithMessage().isEmpty());
        assertFalse(enforced.onRecordingFailure().terminateSessionWithMessage().isEmpty());
        String reports = "https://control.example/machine/ssh/recording-failure";
        assertEquals(reports, enforced.onRecordingFailure().notifyUrl());
        SSHAction optional = rules.get(1).action();
        assertEquals(recorders, optional.recorders());
        assertTrue(optional.accept());
        assertEquals(new SSHRecorderFailureAction("", "", reports), optional.onRecordingFailure(),
                "without enforceRecorder the client goes on unrecorded, and reports the failure");
    }

    @Test
    void sshRecordersMustBeTagsAndEnforcingNeedsOne() {
        assertEquals("recorder \"group:dev\" must be a tag", assertThrows(PolicyException.class, () -> compile(
                "'ssh': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['root'],"
                        + " 'recorder': ['group:dev']}]")).getMessage());
        assertEquals("enforceRecorder needs a recorder", assertThrows(PolicyException.class, () -> compile(
                "'ssh': [{'action': 'accept', 'src': ['group:dev'], 'dst': ['tag:server'], 'users': ['root'],"
                        + " 'enforceRecorder': true}]")).getMessage());
    }

    @Test
    void sshToAutogroupSelfAndLocalpart() {
        CompiledPolicy compiled = compile("'ssh': [{'action': 'accept', 'src': ['autogroup:member'], 'dst': ['autogroup:self'],"
                + " 'users': ['root']}, {'action': 'accept', 'src': ['bob@example.com'], 'dst': ['tag:server'],"
                + " 'users': ['localpart:*@example.com']}]");
        assertEquals(List.of(SSHPrincipal.nodeIp("100.64.0.1"), SSHPrincipal.nodeIp("100.64.0.2"),
                SSHPrincipal.nodeIp("fd7a:115c:a1e0::1"), SSHPrincipal.nodeIp("fd7a:115c:a1e0::2")),
                compiled.sshPolicy(id("alice-phone")).rules().getFirst().principals());
        List<SSHRule> server = compiled.sshPolicy(id("server")).rules();
        assertEquals(List.of(Map.of("root", ""), Map.of("bob", "bob")), server.stream().map(SSHRule::sshUsers).toList(),
                "a rule for the source user, then one for the local part of the user's address");
    }

    @Test
    void nodeAttrsAndTheBaselineMakeTheCapMap() {
        CompiledPolicy compiled = compile("'nodeAttrs': [{'target': ['tag:server', 'carol@other.example'],"
                + " 'attr': ['funnel', 'nextdns:abc']}, {'target': ['tag:server'],"
                + " 'app': {'tailscale.com/app-connectors': [{'name': 'github', 'connectors': ['tag:server']}]}}],"
                + " 'randomizeClientPort': true");
        Map<String, List<RawJson>> server = compiled.capMap(id("server"));
        assertEquals(List.of("funnel", "https://tailscale.com/cap/funnel-ports?ports=443,8443,10000",
                "https://tailscale.com/cap/ssh", "https://tailscale.com/cap/warn-funnel-no-https", "nextdns:abc",
                "randomize-client-port", "tailscale.com/app-connectors"), List.copyOf(server.keySet()));
        assertEquals(null, server.get("funnel"), "a bare attribute has no values");
        assertEquals("[{\"name\":\"github\",\"connectors\":[\"tag:server\"]}]",
                server.get("tailscale.com/app-connectors").toString());
        assertTrue(compiled.capMap(id("alice-laptop")).containsKey("https://tailscale.com/cap/is-owner"));
        assertTrue(compiled.capMap(id("carol-laptop")).containsKey("https://tailscale.com/cap/is-admin"));
        assertFalse(compiled.capMap(id("bob-laptop")).containsKey("funnel"));
    }

    @Test
    void aMachineOutsideTheInventoryGetsNothing() {
        CompiledPolicy compiled = compile("'acls': [{'action': 'accept', 'src': ['*'], 'dst': ['*:*']}]");
        assertEquals(List.of(), compiled.packetFilter(99));
        assertEquals(List.of(), compiled.peers(99));
        assertFalse(compiled.sees(99, id("server")));
        assertEquals(List.of(), compiled.sshPolicy(99).rules());
    }
}
