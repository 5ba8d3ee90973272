package io.meshcontrol.core.routes;

import static io.meshcontrol.core.routes.Machines.router;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec "Exit node and routing behavior", rules 1 to 3, as the server's side of them. */
class ExitNodeSteeringTest {

    private static final Node EXIT_A = router(1, "0.0.0.0/0", "::/0");
    private static final Node EXIT_B = router(2, "0.0.0.0/0", "::/0");
    private static final Node SUBNET = router(3, "10.3.0.0/16");

    @Test
    void withoutMarksEveryApprovedExitNodeIsSuggested() {
        ExitNodeSteering steering = ExitNodeSteering.of(List.of(EXIT_A, EXIT_B, SUBNET));
        assertTrue(steering.suggests(EXIT_A));
        assertTrue(steering.suggests(EXIT_B));
        assertFalse(steering.suggests(SUBNET), "not an exit node");
        assertFalse(steering.suggests(Machines.node(4, List.of(), Machines.prefixes("0.0.0.0/0", "::/0"),
                Machines.prefixes())), "advertised, not approved");
        assertEquals(List.of(), steering.selfAttributes(), "no auto-exit-node without a mark");
    }

    @Test
    void onceANodeIsMarkedOnlyMarkedNodesAreSuggestedAndEveryNodeMayChooseAutomatically() {
        Node markedB = EXIT_B.withGlobalExitPriority(0);
        ExitNodeSteering steering = ExitNodeSteering.of(List.of(EXIT_A, markedB, SUBNET));
        assertFalse(steering.suggests(EXIT_A));
        assertTrue(steering.suggests(markedB));
        assertEquals(List.of(ExitNodeSteering.AUTO_EXIT_NODE), steering.selfAttributes(),
                "priority 0 alone is no priority: no traffic steering");
        assertEquals(0, steering.locationPriority(markedB));
    }

    @Test
    void aPriorityTurnsOnTrafficSteeringAndIsShownAsLocationPriority() {
        Node high = EXIT_A.withGlobalExitPriority(20);
        Node zero = EXIT_B.withGlobalExitPriority(0);
        ExitNodeSteering steering = ExitNodeSteering.of(List.of(high, zero, SUBNET));
        assertEquals(List.of(ExitNodeSteering.AUTO_EXIT_NODE, ExitNodeSteering.TRAFFIC_STEERING),
                steering.selfAttributes());
        assertEquals(20, steering.locationPriority(high));
        assertEquals(0, steering.locationPriority(zero), "priority 0 is ranked last by clients");
        assertEquals(0, steering.locationPriority(SUBNET));
    }

    @Test
    void marksOfNodesWaitingForApprovalCountForNothing() {
        Node waiting = EXIT_A.withGlobalExitPriority(5).withAuthorized(false);
        ExitNodeSteering steering = ExitNodeSteering.of(List.of(waiting, EXIT_B));
        assertEquals(ExitNodeSteering.NONE, steering);
        assertTrue(steering.suggests(EXIT_B));
    }

    @Test
    void aSuspendedExitNodeIsNeitherSuggestedNorCountedAsMarked() {
        Node suspended = EXIT_A.withGlobalExitPriority(5).withSuspended(true);
        ExitNodeSteering steering = ExitNodeSteering.of(List.of(suspended, EXIT_B));
        assertEquals(ExitNodeSteering.NONE, steering);
        assertFalse(steering.suggests(suspended));
        assertTrue(steering.suggests(EXIT_B));
    }

    @Test
    void aMarkedNodeThatServesNoExitRouteTakesNoSuggestionFromTheRealExitNode() {
        Node withdrawn = Machines.node(1, List.of(), Machines.prefixes("10.3.0.0/16"),
                Machines.prefixes("0.0.0.0/0", "::/0")).withGlobalExitPriority(5);
        ExitNodeSteering steering = ExitNodeSteering.of(List.of(withdrawn, EXIT_B));
        assertEquals(ExitNodeSteering.NONE, steering, "the mark counts for nothing while no exit route is served");
        assertTrue(steering.suggests(EXIT_B));
        assertFalse(steering.suggests(withdrawn));
    }

    @Test
    void aMarkChangesHowOtherExitNodesAreSeen() {
        ExitNodeSteering before = ExitNodeSteering.of(List.of(EXIT_A, EXIT_B));
        ExitNodeSteering after = ExitNodeSteering.of(List.of(EXIT_A.withGlobalExitPriority(3), EXIT_B));
        assertTrue(after.seenDifferently(EXIT_B, before), "B is no longer suggested");
        assertFalse(after.seenDifferently(SUBNET, before));
    }
}
