package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.wire.ControlDialPlan;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code control_dial_plan}: the file's addresses become the map's {@code ControlDialPlan}, first preferred. */
class ControlDialPlanTest {

    @TempDir
    Path folder;

    @Test
    void theFilesAddressesAreCandidatesInOrderOfPreference() {
        try (TestServer server = TestServer.in(folder).set("control_dial_plan", "192.0.2.10 2001:db8::10").start()) {
            ControlDialPlan plan = server.server.mapContext().dialPlan();
            assertEquals(List.of(IpAddress.parse("192.0.2.10"), IpAddress.parse("2001:db8::10")),
                    plan.candidates().stream().map(ControlDialPlan.Candidate::ip).toList());
            assertEquals(List.of(2, 1), plan.candidates().stream().map(ControlDialPlan.Candidate::priority).toList());
            assertEquals(10.0, plan.candidates().getFirst().dialTimeoutSec());
        }
    }

    @Test
    void anEmptyListSendsNoPlan() {
        try (TestServer server = TestServer.start(folder)) {
            assertNull(server.server.mapContext().dialPlan());
        }
    }
}
