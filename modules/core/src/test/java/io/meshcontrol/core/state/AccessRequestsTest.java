package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.AccessRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.netmap.AccessRules;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessRequestsTest {

    /** Only group:oncall reaches the tagged database server. */
    private static final String POLICY = """
            {
              "groups": {"group:oncall": ["ops@"]},
              "tagOwners": {"tag:db": ["ops@"]},
              "acls": [{"action": "accept", "src": ["group:oncall"], "dst": ["tag:db:*"]}]
            }
            """;

    @TempDir
    Path folder;
    TestNetwork net;
    AccessRequests requests;
    User odin;
    Caller odinsKey;
    Caller approver;
    final List<MeshEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.user("ops", Role.NETWORK_ADMIN);
        odin = net.user("odin", Role.MEMBER);
        net.policy(POLICY);
        odinsKey = net.callerFor("odin", null);
        approver = net.callerFor("ops", null);
        requests = net.network.accessRequests();
        net.network.events().subscribe(events::add);
    }

    private AccessRequest ask() {
        return requests.create(odinsKey, new AccessRequests.NewRequest(null, "group:oncall", "incident 42", "2h"));
    }

    private List<String> types() {
        return events.stream().map(MeshEvent::type).toList();
    }

    /** Whether odin's laptop may reach the database server under the policy in force. */
    private boolean laptopReachesDb(Node laptop, Node db) {
        AccessRules rules = AccessRules.compile(net.network.policies().policy(), net.network.snapshots().current());
        return rules.sees(laptop, db);
    }

    @Test
    void aUserAsksForThemselfAndTheRequestWaits() {
        AccessRequest request = ask();
        assertEquals(AccessRequest.State.PENDING, request.state());
        assertEquals(odin.id(), request.userId());
        assertEquals(Duration.ofHours(2), request.duration());
        assertEquals(List.of("accessRequestCreated"), types());
        MeshEvent.AccessRequestCreated created = (MeshEvent.AccessRequestCreated) events.getFirst();
        assertEquals("odin", created.user().name());
        assertEquals(request, created.request());
        assertEquals(List.of(request), requests.list(odinsKey), "a user sees their own requests");
        assertEquals("accessrequest.create", net.network.auditLog().recent(null, 1).getFirst().action());
    }

    @Test
    void badRequestsAreRefusedAndTellNobody() {
        assertEquals(MeshException.Reason.INVALID, assertThrows(MeshException.class, () -> requests.create(odinsKey,
                new AccessRequests.NewRequest(null, "group:nosuch", "why", "1h"))).reason());
        assertThrows(MeshException.class, () -> requests.create(odinsKey,
                new AccessRequests.NewRequest(null, "group:oncall", "", "1h")));
        assertThrows(MeshException.class, () -> requests.create(odinsKey,
                new AccessRequests.NewRequest(null, "group:oncall", "why", "31d")));
        assertThrows(MeshException.class, () -> requests.create(odinsKey,
                new AccessRequests.NewRequest(null, "group:oncall", "why", "soon")));
        assertEquals(MeshException.Reason.FORBIDDEN, assertThrows(MeshException.class, () -> requests.create(odinsKey,
                new AccessRequests.NewRequest("ops", "group:oncall", "why", "1h"))).reason(), "only for themself");
        assertEquals(MeshException.Reason.CONFLICT, assertThrows(MeshException.class, () -> requests.create(approver,
                new AccessRequests.NewRequest(null, "group:oncall", "why", "1h"))).reason(), "already a member");
        ask();
        assertEquals(MeshException.Reason.CONFLICT, assertThrows(MeshException.class, this::ask).reason(),
                "one open request per group");
        assertEquals(1, events.size());
    }

    @Test
    void approvalAddsTheMembershipUntilItRunsOut() {
        Node laptop = Machine.named("laptop").join(net.network, AuthKey.forUser("odin").create(net.network));
        Node db = Machine.named("db").join(net.network, AuthKey.forTags("tag:db").create(net.network));
        assertFalse(laptopReachesDb(laptop, db));
        AccessRequest request = ask();
        events.clear();

        AccessRequest approved = requests.approve(approver, request.id());
        assertEquals(AccessRequest.State.APPROVED, approved.state());
        assertEquals(net.clock.instant().plus(Duration.ofHours(2)), approved.expiresAt());
        assertEquals(List.of("accessRequestApproved", "policyUpdate"), types(), "a group changed");
        assertEquals("apikey:" + approver.apiKey().id(), ((MeshEvent.AccessRequestApproved) events.getFirst()).actor());
        assertTrue(laptopReachesDb(laptop, db), "the membership is in the policy in force");
        assertTrue(net.network.policies().get(net.admin).policy().text().contains("\"ops@\"]"),
                "the saved policy text is unchanged");

        net.clock.advance(Duration.ofHours(1));
        assertEquals(0, requests.expireGrants());
        net.clock.advance(Duration.ofHours(1));
        assertEquals(1, requests.expireGrants());
        assertFalse(laptopReachesDb(laptop, db), "it ran out by itself");
        assertEquals(AccessRequest.State.EXPIRED, requests.get(odinsKey, request.id()).state());
        assertEquals(List.of("accessRequestApproved", "policyUpdate", "policyUpdate"), types(),
                "running out has no access request event, only the group's change");
        assertEquals(AccessRequests.EXPIRY_ACTOR, ((MeshEvent.PolicyUpdated) events.getLast()).actor());
    }

    @Test
    void aGrantSurvivesARestartAndAPolicySave() {
        Node laptop = Machine.named("laptop").join(net.network, AuthKey.forUser("odin").create(net.network));
        Node db = Machine.named("db").join(net.network, AuthKey.forTags("tag:db").create(net.network));
        requests.approve(approver, ask().id());
        net.policy(POLICY + "\n");
        assertTrue(laptopReachesDb(laptop, db), "a new save keeps the granted members");
        Network restarted = net.reopened(folder);
        AccessRules rules = AccessRules.compile(restarted.policies().policy(), restarted.snapshots().current());
        assertTrue(rules.sees(laptop, db));
    }

    @Test
    void denyAndRevokePublishOnceAndOnlyFromTheRightState() {
        Node laptop = Machine.named("laptop").join(net.network, AuthKey.forUser("odin").create(net.network));
        Node db = Machine.named("db").join(net.network, AuthKey.forTags("tag:db").create(net.network));
        events.clear();
        AccessRequest first = ask();
        requests.deny(approver, first.id());
        assertEquals(MeshException.Reason.CONFLICT,
                assertThrows(MeshException.class, () -> requests.approve(approver, first.id())).reason());
        assertThrows(MeshException.class, () -> requests.revoke(approver, first.id()));

        AccessRequest second = ask();
        assertThrows(MeshException.class, () -> requests.revoke(approver, second.id()), "not granted yet");
        requests.approve(approver, second.id());
        AccessRequest revoked = requests.revoke(approver, second.id());
        assertEquals(AccessRequest.State.REVOKED, revoked.state());
        assertFalse(laptopReachesDb(laptop, db));
        assertThrows(MeshException.class, () -> requests.revoke(approver, second.id()));
        assertEquals(List.of("accessRequestCreated", "accessRequestDenied", "accessRequestCreated",
                "accessRequestApproved", "policyUpdate", "accessRequestRevoked", "policyUpdate"), types());
    }

    @Test
    void onlyApproversDecideAndNobodyDecidesTheirOwn() {
        AccessRequest request = ask();
        assertEquals(MeshException.Reason.FORBIDDEN,
                assertThrows(MeshException.class, () -> requests.approve(odinsKey, request.id())).reason());
        User freya = net.user("freya", Role.ADMIN);
        Caller freyasKey = net.callerFor("freya", null);
        requests.create(freyasKey, new AccessRequests.NewRequest(null, "group:oncall", "audit", "1h"));
        AccessRequest own = requests.list(freyasKey).getFirst();
        assertEquals(freya.id(), own.userId());
        assertEquals(MeshException.Reason.FORBIDDEN,
                assertThrows(MeshException.class, () -> requests.approve(freyasKey, own.id())).reason());
        assertEquals(MeshException.Reason.NOT_FOUND,
                assertThrows(MeshException.class, () -> requests.get(odinsKey, own.id())).reason(),
                "another user's request is not shown");
    }

    @Test
    void approversAreTheUsersWhoseRoleMayDecide() {
        net.user("ivan", Role.IT_ADMIN);
        net.user("olga", Role.OWNER);
        assertEquals(List.of("ops", "olga"), requests.approvers().stream().map(User::name).toList());
    }
}
