package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NoiseHandshakeTest {

    private static final int CAPABILITY_VERSION = 130;

    private final MachinePrivateKey serverKey = MachinePrivateKey.generate();
    private final MachinePrivateKey clientKey = MachinePrivateKey.generate();
    private final NoiseResponder responder = new NoiseResponder(serverKey);

    @Test
    void handshakeAgreesOnKeysVersionAndHash() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        byte[] initiation = initiator.initiationMessage();
        assertEquals(101, initiation.length);
        assertArrayEquals(new byte[] {0, (byte) CAPABILITY_VERSION, 1, 0, 96}, Arrays.copyOf(initiation, 5));
        assertArrayEquals(initiation, Base64.getDecoder().decode(initiator.initiationHeaderValue()));

        AcceptedHandshake accepted = responder.respond(initiation);
        assertEquals(clientKey.publicKey(), accepted.clientKey());
        assertEquals(CAPABILITY_VERSION, accepted.protocolVersion());
        assertEquals(51, accepted.response().length);
        assertArrayEquals(new byte[] {2, 0, 48}, Arrays.copyOf(accepted.response(), 3));

        NoiseTransport client = initiator.complete(accepted.response());
        assertArrayEquals(client.handshakeHash(), accepted.transport().handshakeHash());
    }

    @Test
    void recordsFlowBothWaysPastCounter255() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        AcceptedHandshake accepted = responder.respond(initiator.initiationMessage());
        NoiseTransport client = initiator.complete(accepted.response());
        NoiseTransport server = accepted.transport();

        for (int i = 0; i < 600; i++) {
            byte[] request = ("request " + i).getBytes(StandardCharsets.UTF_8);
            assertArrayEquals(request, server.decrypt(client.encrypt(request)));
            byte[] reply = ("reply " + i).repeat(i % 7).getBytes(StandardCharsets.UTF_8);
            assertArrayEquals(reply, client.decrypt(server.encrypt(reply)));
        }
    }

    @Test
    void tamperedRecordIsRejectedAndBreaksTheReceivingSide() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        AcceptedHandshake accepted = responder.respond(initiator.initiationMessage());
        NoiseTransport client = initiator.complete(accepted.response());
        NoiseTransport server = accepted.transport();

        byte[] record = client.encrypt("hello".getBytes(StandardCharsets.UTF_8));
        record[5] ^= 1;
        NoiseProtocolException failed = assertThrows(NoiseProtocolException.class, () -> server.decrypt(record));
        assertEquals(NoiseProtocolException.Problem.DECRYPTION_FAILED, failed.problem());

        byte[] next = client.encrypt("again".getBytes(StandardCharsets.UTF_8));
        NoiseProtocolException broken = assertThrows(NoiseProtocolException.class, () -> server.decrypt(next));
        assertEquals(NoiseProtocolException.Problem.CONNECTION_BROKEN, broken.problem());
    }

    @Test
    void recordIsBoundToItsDirection() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        AcceptedHandshake accepted = responder.respond(initiator.initiationMessage());
        NoiseTransport client = initiator.complete(accepted.response());

        byte[] reflected = client.encrypt("echo".getBytes(StandardCharsets.UTF_8));
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> client.decrypt(reflected));
        assertEquals(NoiseProtocolException.Problem.DECRYPTION_FAILED, e.problem());
    }

    @Test
    void clientExpectingAnotherServerKeyFailsTheHandshake() throws Exception {
        MachinePublicKey someoneElse = MachinePrivateKey.generate().publicKey();
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, someoneElse, CAPABILITY_VERSION);
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> responder.respond(initiator.initiationMessage()));
        assertEquals(NoiseProtocolException.Problem.HANDSHAKE_FAILED, e.problem());
        assertEquals(Optional.empty(), e.clientHint(), "a failed handshake is closed, not answered");
    }

    @Test
    void responseFromAServerWithAnotherKeyFailsOnTheClient() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        byte[] response = responder.respond(initiator.initiationMessage()).response();
        NoiseInitiator other = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        // A response made for a different initiation (another ephemeral key) cannot authenticate.
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> other.complete(response));
        assertEquals(NoiseProtocolException.Problem.HANDSHAKE_FAILED, e.problem());
    }

    @Test
    void tamperedResponseFailsOnTheClient() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        byte[] response = responder.respond(initiator.initiationMessage()).response();
        response[50] ^= 0x40;
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> initiator.complete(response));
        assertEquals(NoiseProtocolException.Problem.HANDSHAKE_FAILED, e.problem());
    }

    @Test
    void versionInTheHeaderIsAuthenticatedThroughThePrologue() throws Exception {
        byte[] initiation = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION)
                .initiationMessage();
        initiation[1] = (byte) (CAPABILITY_VERSION + 1);
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> responder.respond(initiation));
        assertEquals(NoiseProtocolException.Problem.HANDSHAKE_FAILED, e.problem());
    }

    @Test
    void tamperedInitiationFails() throws Exception {
        for (int index : new int[] {5, 40, 100}) {
            byte[] initiation = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION)
                    .initiationMessage();
            initiation[index] ^= 0x10;
            NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                    () -> responder.respond(initiation));
            assertEquals(NoiseProtocolException.Problem.HANDSHAKE_FAILED, e.problem(), "byte " + index);
        }
    }

    @Test
    void malformedInitiationsGetTailscalesErrorTexts() throws Exception {
        byte[] valid = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION).initiationMessage();

        NoiseProtocolException size = assertThrows(NoiseProtocolException.class,
                () -> responder.respond(Arrays.copyOf(valid, 100)));
        assertEquals(NoiseProtocolException.Problem.WRONG_INITIATION_SIZE, size.problem());
        assertEquals(Optional.of("wrong handshake initiation size"), size.clientHint());

        byte[] wrongType = valid.clone();
        wrongType[2] = 4;
        NoiseProtocolException type = assertThrows(NoiseProtocolException.class, () -> responder.respond(wrongType));
        assertEquals(NoiseProtocolException.Problem.UNEXPECTED_MESSAGE_TYPE, type.problem());
        assertEquals(Optional.of("unexpected handshake message type"), type.clientHint());

        byte[] wrongLength = valid.clone();
        wrongLength[4] = 95;
        NoiseProtocolException length = assertThrows(NoiseProtocolException.class,
                () -> responder.respond(wrongLength));
        assertEquals(NoiseProtocolException.Problem.WRONG_LENGTH, length.problem());
        assertEquals(Optional.of("wrong handshake initiation length"), length.clientHint());

        byte[] frame = NoiseFrames.errorFrame(length.clientHint().orElseThrow());
        byte[] text = "wrong handshake initiation length".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(new byte[] {3, 0, (byte) text.length}, Arrays.copyOf(frame, 3));
        assertArrayEquals(text, Arrays.copyOfRange(frame, 3, frame.length));
    }

    @Test
    void clientReportsTheServersErrorFrame() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> initiator.complete(NoiseFrames.errorFrame("unexpected handshake message type")));
        assertEquals(NoiseProtocolException.Problem.SERVER_ERROR, e.problem());
        assertEquals("server refused the handshake: \"unexpected handshake message type\"", e.getMessage());
    }

    @Test
    void clientRefusesMalformedResponses() throws Exception {
        byte[] response = responder.respond(
                NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION).initiationMessage())
                .response();
        assertResponseProblem(NoiseProtocolException.Problem.TRUNCATED_FRAME, Arrays.copyOf(response, 2));
        assertResponseProblem(NoiseProtocolException.Problem.TRUNCATED_FRAME, Arrays.copyOf(response, 50));
        assertResponseProblem(NoiseProtocolException.Problem.TRAILING_BYTES, Arrays.copyOf(response, 52));
        byte[] record = response.clone();
        record[0] = 4;
        assertResponseProblem(NoiseProtocolException.Problem.UNEXPECTED_MESSAGE_TYPE, record);
        byte[] unknown = response.clone();
        unknown[0] = 7;
        assertResponseProblem(NoiseProtocolException.Problem.UNKNOWN_MESSAGE_TYPE, unknown);
        byte[] length = response.clone();
        length[2] = 47;
        assertResponseProblem(NoiseProtocolException.Problem.WRONG_LENGTH, length);
    }

    @Test
    void zeroServerKeyCannotStartAHandshake() {
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> NoiseInitiator.start(clientKey, MachinePublicKey.ZERO, CAPABILITY_VERSION));
        assertEquals(NoiseProtocolException.Problem.HANDSHAKE_FAILED, e.problem());
        assertTrue(e.getMessage().startsWith("computing es"), e.getMessage());
    }

    @Test
    void protocolVersionMustFitSixteenBits() {
        assertThrows(IllegalArgumentException.class,
                () -> NoiseInitiator.start(clientKey, serverKey.publicKey(), 65536));
    }

    @Test
    void initiatorCompletesOnlyOnce() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        byte[] response = responder.respond(initiator.initiationMessage()).response();
        initiator.complete(response);
        assertThrows(IllegalStateException.class, () -> initiator.complete(response));
    }

    private void assertResponseProblem(NoiseProtocolException.Problem expected, byte[] frame) throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey.publicKey(), CAPABILITY_VERSION);
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> initiator.complete(frame));
        assertEquals(expected, e.problem(), e.getMessage());
    }
}
