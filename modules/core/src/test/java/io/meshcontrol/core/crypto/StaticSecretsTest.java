package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.X25519;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StaticSecretsTest {

    private final MachinePrivateKey serverKey = MachinePrivateKey.generate();

    @Test
    void aReturningMachinesSecretIsTheAgreementKeptOnceAndNeverChangedByItsUser() throws Exception {
        StaticSecrets secrets = new StaticSecrets(serverKey);
        MachinePrivateKey client = MachinePrivateKey.generate();
        byte[] expected = X25519.sharedSecret(serverKey.bytes(), client.publicKey().bytes());

        byte[] first = secrets.with(client.publicKey());
        assertArrayEquals(expected, first);
        Arrays.fill(first, (byte) 0);
        assertArrayEquals(expected, secrets.with(client.publicKey()));
        assertEquals(1, secrets.size());
    }

    @Test
    void whenFullTheSecretsAreForgottenAndTheNextIsKept() throws Exception {
        StaticSecrets secrets = new StaticSecrets(serverKey, 3);
        for (int i = 0; i < 3; i++) {
            secrets.with(MachinePrivateKey.generate().publicKey());
        }
        assertEquals(3, secrets.size());
        MachinePublicKey fourth = MachinePrivateKey.generate().publicKey();
        assertArrayEquals(X25519.sharedSecret(serverKey.bytes(), fourth.bytes()), secrets.with(fourth));
        assertEquals(1, secrets.size());
    }

    @Test
    void aLowOrderKeyIsRefusedAndNotKept() {
        StaticSecrets secrets = new StaticSecrets(serverKey);
        assertThrows(NoiseProtocolException.class, () -> secrets.with(MachinePublicKey.fromRaw(new byte[32])));
        assertEquals(0, secrets.size());
    }

    @Test
    void aMachineThatHandshakesAgainGetsWorkingKeysFromTheKeptSecret() throws Exception {
        NoiseResponder responder = new NoiseResponder(serverKey);
        MachinePrivateKey client = MachinePrivateKey.generate();
        byte[][] hashes = new byte[2][];
        for (int i = 0; i < 2; i++) {
            NoiseInitiator initiator = NoiseInitiator.start(client, serverKey.publicKey(), 130);
            AcceptedHandshake accepted = responder.respond(initiator.initiationMessage());
            NoiseTransport transport = initiator.complete(accepted.response());
            assertArrayEquals(transport.handshakeHash(), accepted.transport().handshakeHash());
            hashes[i] = accepted.transport().handshakeHash();
        }
        assertFalse(Arrays.equals(hashes[0], hashes[1]), "each handshake has its own ephemeral keys");
    }
}
