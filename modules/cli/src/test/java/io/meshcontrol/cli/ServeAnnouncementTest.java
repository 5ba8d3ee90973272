package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** What svc serve announces once it is ready. */
class ServeAnnouncementTest {

    @Test
    void theReadyLineNeverClaimsHttpsForThePlainHttpListener() {
        String line = ServeCommand.readyLine("T1", URI.create("http://127.0.0.1:8080"), "https://mesh.example.com");
        assertTrue(line.contains("serving plain HTTP on http://127.0.0.1:8080"), line);
        assertTrue(line.contains("clients reach it at https://mesh.example.com (server_url), through a proxy that "
                + "terminates TLS"), line);
        assertEquals("network T1 ready at http://127.0.0.1:8080",
                ServeCommand.readyLine("T1", URI.create("http://127.0.0.1:8080"), "http://127.0.0.1:8080"));
    }

    @Test
    void onceReadyItNamesTheConsoleAndTheExactJoinLine() {
        String steps = ServeCommand.nextSteps("https://mesh.example.com/");
        assertTrue(steps.contains("svc users create --name alice --role admin"), steps);
        assertTrue(steps.contains("svc preauthkeys create --user alice"), steps);
        assertTrue(steps.contains("tailscale up --login-server=https://mesh.example.com/ --auth-key="), steps);
        assertTrue(steps.contains("the browser console:         https://mesh.example.com/admin"), steps);
        assertTrue(steps.contains("svc apikeys create"), steps);
    }
}
