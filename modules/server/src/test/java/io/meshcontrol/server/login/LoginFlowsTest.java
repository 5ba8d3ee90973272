package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.testing.MovableClock;
import org.junit.jupiter.api.Test;

class LoginFlowsTest {

    private final MovableClock clock = MovableClock.startingAt2026();
    private final LoginFlows flows = new LoginFlows(clock);

    @Test
    void theS256ChallengeIsTheOneOfRfc7636AppendixB() {
        assertEquals("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                LoginFlows.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", MeshConfig.Pkce.Method.S256));
        assertEquals("plain-verifier", LoginFlows.challenge("plain-verifier", MeshConfig.Pkce.Method.PLAIN));
    }

    @Test
    void eachLoginHasItsOwnSecretsAndItsStateIsTakenOnce() {
        LoginFlows.Flow first = flows.begin(new LoginFlows.Purpose.Machine("abc"));
        LoginFlows.Flow second = flows.begin(new LoginFlows.Purpose.Console(null));
        assertNotEquals(first.state(), second.state());
        assertNotEquals(first.nonce(), second.nonce());
        assertTrue(first.codeVerifier().length() >= 43 && first.codeVerifier().length() <= 128);
        assertEquals(first, flows.take(first.state()).orElseThrow());
        assertTrue(flows.take(first.state()).isEmpty(), "a state is good for one callback");
        assertTrue(flows.take(null).isEmpty());
        assertTrue(flows.take("unknown").isEmpty());
    }

    @Test
    void aLoginLapses() {
        LoginFlows.Flow flow = flows.begin(new LoginFlows.Purpose.Console(null));
        clock.advance(LoginFlows.LIFETIME);
        assertTrue(flows.take(flow.state()).isEmpty());
    }
}
