package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.NetPortRange;
import io.meshcontrol.core.wire.PortRange;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AccessRulesTest {

    private static final List<String> WILDCARD_SOURCES = List.of("100.115.94.0-100.127.255.255",
            "100.64.0.0-100.115.91.255", "fd7a:115c:a1e0::/48");
    private static final String TAGS = "\"tagOwners\": {\"tag:web\": [\"autogroup:admin\"], \"tag:db\": [\"autogroup:admin\"]}";

    @TempDir
    Path folder;
    Network network;
    final Caller admin = Caller.localAdmin();
    Node aliceLaptop;
    Node alicePhone;
    Node bobLaptop;
    Node web;
    Node db;

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        network.users().create(admin, new Users.NewUser("alice", null, "alice@example.com", Role.MEMBER));
        network.users().create(admin, new Users.NewUser("bob", null, "bob@example.com", Role.MEMBER));
        network.policies().set(admin, "{" + TAGS + "}", null);
        aliceLaptop = join("alice", List.of(), "alice-laptop");
        alicePhone = join("alice", List.of(), "alice-phone");
        bobLaptop = join("bob", List.of(), "bob-laptop");
        web = join(null, List.of("tag:web"), "web");
        db = join(null, List.of("tag:db"), "db");
    }

    private Node join(String user, List<String> tags, String name) {
        return Machine.named(name).hostinfo("{}").join(network, AuthKey.of(user, tags).create(network));
    }

    @Test
    void theCompilationOutlivesPresenceChangesButNotChangesThePolicySees() {
        AccessControl control = new AccessControl(network.policies());
        AccessRules before = control.rules(network.snapshots().current());
        network.presence().connected(web);
        network.presence().disconnected(web);
        assertSame(before, control.rules(network.snapshots().current()), "only presence and last seen changed");

        network.nodes().setTags(admin, web.id(), List.of("tag:db"));
        assertNotSame(before, control.rules(network.snapshots().current()), "the policy sees tags");
    }

    @Test
    void aStreamBehindOnTheFeedGetsItsSnapshotsCompilationWithoutCompilingAgain() {
        AccessControl control = new AccessControl(network.policies());
        var older = network.snapshots().current();
        AccessRules forOlder = control.rules(older);
        Node late = join("bob", List.of(), "bob-tablet");
        var newer = network.snapshots().current();
        AccessRules forNewer = control.rules(newer);
        assertNotSame(forOlder, forNewer, "a join is seen by the policy");
        assertTrue(forNewer.sees(bobLaptop, late));
        assertSame(forOlder, control.rules(older), "the older snapshot's compilation is still kept");
        assertSame(forNewer, control.rules(newer), "and the newer one's");
        for (int i = 0; i < AccessControl.KEPT; i++) {
            join("bob", List.of(), "bob-extra-" + i);
            control.rules(network.snapshots().current());
        }
        assertNotSame(forOlder, control.rules(older), "only the newest few compilations are kept");
    }

    private AccessRules rules(String sections) {
        return AccessRules.compile(Policy.parse("{" + TAGS + ", " + sections + "}"), network.snapshots().current());
    }

    @Test
    void withoutAclsOrGrantsEverythingIsAllowed() {
        AccessRules rules = AccessRules.compile(Policy.parse("{" + TAGS + "}"), network.snapshots().current());
        assertTrue(rules.sees(bobLaptop, db));
        assertEquals(List.of(FilterRule.allow(WILDCARD_SOURCES, List.of(NetPortRange.any("*")))), rules.packetFilter(web),
                "as the vendor writes it: every node address range as source, any destination");
    }

    @Test
    void anEmptyAclsListAllowsNothing() {
        AccessRules rules = rules("\"acls\": []");
        assertFalse(rules.sees(aliceLaptop, alicePhone));
        assertEquals(List.of(), rules.packetFilter(web));
    }

    @Test
    void groupToTagOnOnePortGivesTheTargetAFilterAndBothSidesVisibility() {
        AccessRules rules = rules("\"groups\": {\"group:dev\": [\"alice@example.com\"]}, "
                + "\"acls\": [{\"action\": \"accept\", \"src\": [\"group:dev\"], \"dst\": [\"tag:web:443\"]}]");
        assertTrue(rules.sees(aliceLaptop, web));
        assertTrue(rules.sees(web, alicePhone), "the target sees who may reach it");
        assertFalse(rules.sees(bobLaptop, web));
        assertFalse(rules.sees(aliceLaptop, db));
        List<FilterRule> filter = rules.packetFilter(web);
        assertEquals(1, filter.size());
        assertEquals(List.of(aliceLaptop.ipv4(), alicePhone.ipv4(), aliceLaptop.ipv6(), alicePhone.ipv6()),
                filter.getFirst().srcIps(), "sorted as text");
        assertEquals(List.of(new NetPortRange(web.ipv4(), null, PortRange.of(443)),
                new NetPortRange(web.ipv6(), null, PortRange.of(443))), filter.getFirst().dstPorts());
        assertEquals(List.of(), rules.packetFilter(aliceLaptop), "nothing may reach alice's laptop");
    }

    @Test
    void autogroupSelfLetsAUsersMachinesReachEachOther() {
        AccessRules rules = rules("\"acls\": [{\"action\": \"accept\", \"src\": [\"autogroup:member\"], "
                + "\"dst\": [\"autogroup:self:*\"]}]");
        assertTrue(rules.sees(aliceLaptop, alicePhone));
        assertFalse(rules.sees(aliceLaptop, bobLaptop));
        assertFalse(rules.sees(web, db));
        assertEquals(List.of(alicePhone.ipv4(), alicePhone.ipv6(), aliceLaptop.ipv4(), aliceLaptop.ipv6()).stream()
                .sorted().toList(), rules.packetFilter(aliceLaptop).getFirst().srcIps().stream().sorted().toList());
    }

    @Test
    void hostsAndAddressesAndProtocols() {
        AccessRules rules = rules("\"hosts\": {\"office\": \"192.0.2.0/24\"}, \"acls\": ["
                + "{\"action\": \"accept\", \"src\": [\"office\", \"" + bobLaptop.ipv4() + "\"], \"dst\": [\"tag:db:5432\"],"
                + " \"proto\": \"tcp\"}]");
        FilterRule rule = rules.packetFilter(db).getFirst();
        assertEquals(List.of(bobLaptop.ipv4(), "192.0.2.0/24"), rule.srcIps(), "what the rule names, sorted as text");
        assertEquals(List.of(6), rule.ipProto());
        assertTrue(rules.sees(bobLaptop, db));
    }

    @Test
    void starToStarIsEveryoneAndWildcardDestination() {
        AccessRules rules = rules("\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"*:*\"]}]");
        assertTrue(rules.sees(bobLaptop, db));
        FilterRule rule = rules.packetFilter(web).getFirst();
        assertEquals(WILDCARD_SOURCES, rule.srcIps());
        assertEquals(List.of(new NetPortRange("*", null, PortRange.ANY)), rule.dstPorts());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"acls\": [{\"action\": \"accept\", \"src\": [\"tag:x\"], \"dst\": [\"*:*\"]}]}  | src=tag not found: \"tag:x\"",
            "{\"acls\": [{\"action\": \"accept\", \"src\": [\"group:x\"], \"dst\": [\"*:*\"]}]} | src=group not found: \"group:x\"",
            "{\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"nas:22\"]}]}     | dst=\"nas\": host not found: \"nas\"",
            "{\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"*:99999\"]}]}    | dst=\"*:99999\": port range \"99999\": invalid first integer",
            "{\"acls\": [{\"action\": \"drop\", \"src\": [\"*\"], \"dst\": [\"*:*\"]}]}          | action=\"drop\" is not supported",
    })
    void badRulesAreRefusedWithTheVendorsWords(String policy, String message) {
        assertEquals(message, assertThrows(PolicyException.class, () -> Policy.parse(policy)).getMessage());
    }

    @Test
    void taggingANodeChangesWhatTheRulesSay() {
        Node tagged = network.nodes().setTags(admin, bobLaptop.id(), List.of("tag:web"));
        AccessRules rules = AccessRules.compile(Policy.parse("{" + TAGS + ", \"acls\": [{\"action\": \"accept\", "
                + "\"src\": [\"alice@example.com\"], \"dst\": [\"tag:web:80\"]}]}"), network.snapshots().current());
        assertTrue(rules.sees(aliceLaptop, tagged));
        assertFalse(rules.packetFilter(tagged).isEmpty());
    }

    @Test
    void aRouterGetsTheRulesForTheSubnetsItServes() {
        Node router = Machine.named("router").advertising("10.0.0.0/8")
                .join(network, AuthKey.forTags("tag:web").create(network));
        AccessRules advertised = rules("\"acls\": [{\"action\": \"accept\", \"src\": [\"bob@example.com\"],"
                + " \"dst\": [\"10.1.0.0/16:443\"]}]");
        assertEquals(List.of(), advertised.packetFilter(router), "advertised alone serves nothing");
        network.routeApprovals().setApproved(admin, router.id(), List.of("10.0.0.0/8"));
        AccessRules approved = rules("\"acls\": [{\"action\": \"accept\", \"src\": [\"bob@example.com\"],"
                + " \"dst\": [\"10.1.0.0/16:443\"]}]");
        assertEquals(List.of(FilterRule.allow(List.of(bobLaptop.ipv4(), bobLaptop.ipv6()),
                List.of(new NetPortRange("10.1.0.0/16", null, PortRange.of(443))))), approved.packetFilter(router));
        assertTrue(approved.sees(bobLaptop, router));
        assertFalse(approved.sees(aliceLaptop, router));
        assertEquals(List.of("10.0.0.0/8"), approved.peerRoutes(bobLaptop, router));
    }

    /** What {@code svc policy simulate} shows for the same network (PolicySimulationTest): the server agrees. */
    @Test
    void aRouteApprovedOnAdvertisementMakesTheRouterAPeerOfAHostPrefixRulesDestinations() {
        network.policies().set(admin, "{" + TAGS + ", \"hosts\": {\"internal\": \"10.0.0.0/8\"}, "
                + "\"autoApprovers\": {\"routes\": {\"10.33.0.0/16\": [\"tag:web\"]}}, "
                + "\"acls\": [{\"action\": \"accept\", \"src\": [\"internal\"], \"dst\": [\"tag:db:22\"]}]}", null);
        Node router = Machine.named("router").advertising("10.33.0.0/16")
                .join(network, AuthKey.forTags("tag:web").create(network));
        AccessRules rules = AccessRules.compile(network.policies().policy(), network.snapshots().current());
        assertTrue(rules.sees(router, db), "the router serves a route inside the rule's source");
        assertTrue(rules.sees(db, router));
        assertFalse(rules.sees(router, aliceLaptop));
    }

    @Test
    void funnelOffTakesFunnelsAttributesOutOfTheCapabilitiesAndLeavesTheRest() {
        network.policies().set(admin, "{" + TAGS + ", \"nodeAttrs\": [{\"target\": [\"tag:web\"],"
                + " \"attr\": [\"funnel\", \"nextdns:abc\"]}]}", null);
        var snapshot = network.snapshots().current();
        var allowed = new AccessControl(network.policies(), "", true).rules(snapshot).capMap(web).keySet();
        assertTrue(allowed.contains("funnel") && allowed.contains("https://tailscale.com/cap/warn-funnel-no-https"),
                allowed.toString());
        var stripped = new AccessControl(network.policies(), "", false).rules(snapshot).capMap(web).keySet();
        assertEquals(List.of("https://tailscale.com/cap/ssh", "nextdns:abc"), List.copyOf(stripped));
    }

    @Test
    void recordingFailureReportsCanBeTurnedOffLeavingTheEnforcementAlone() {
        network.policies().set(admin, "{" + TAGS + ", \"ssh\": ["
                + "{\"action\": \"accept\", \"src\": [\"alice@example.com\"], \"dst\": [\"tag:web\"], \"users\": [\"root\"],"
                + " \"recorder\": [\"tag:db\"], \"enforceRecorder\": true},"
                + "{\"action\": \"accept\", \"src\": [\"alice@example.com\"], \"dst\": [\"tag:web\"], \"users\": [\"ubuntu\"],"
                + " \"recorder\": [\"tag:db\"]}]}", null);
        var snapshot = network.snapshots().current();
        String reports = "https://mesh.test/machine/ssh/recording-failure";
        var reported = new AccessControl(network.policies(), "https://mesh.test", true, true).rules(snapshot)
                .sshPolicy(web).rules();
        assertEquals(reports, reported.get(0).action().onRecordingFailure().notifyUrl());
        assertEquals(reports, reported.get(1).action().onRecordingFailure().notifyUrl());
        var silent = new AccessControl(network.policies(), "https://mesh.test", true, false).rules(snapshot)
                .sshPolicy(web).rules();
        var enforced = silent.get(0).action().onRecordingFailure();
        assertEquals("", enforced.notifyUrl());
        assertFalse(enforced.rejectSessionWithMessage().isEmpty(), "the session is still refused without a recorder");
        assertEquals(null, silent.get(1).action().onRecordingFailure());
        assertEquals(reported.get(1).action().recorders(), silent.get(1).action().recorders());
    }
}
