package io.meshcontrol.relay.stun;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.code_intelligence.jazzer.mutation.annotation.WithLength;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Coverage-guided fuzzing of the STUN reader, which takes any datagram from the internet: anything but a Binding
 * Request is ignored (empty), never an exception, and a request it accepts gets a well-formed answer carrying its
 * transaction id. See docs/development.md, "Reliability suite".
 */
class StunFuzzTest {

    private static final InetSocketAddress MAPPED = new InetSocketAddress("198.51.100.7", 41641);

    @FuzzTest(maxDuration = "5s")
    void datagram(byte @NotNull @WithLength(max = 1024) [] datagram) {
        StunMessages.bindingRequestTransaction(ByteBuffer.wrap(datagram)).ifPresent(transaction -> {
            ByteBuffer answer = ByteBuffer.wrap(StunMessages.bindingResponse(transaction, MAPPED));
            assertEquals(StunMessages.BINDING_SUCCESS, answer.getShort(0));
            assertEquals(answer.remaining() - StunMessages.HEADER_LENGTH, answer.getShort(2));
            assertEquals(ByteBuffer.wrap(datagram, 8, StunMessages.TRANSACTION_ID_LENGTH),
                    ByteBuffer.wrap(answer.array(), 8, StunMessages.TRANSACTION_ID_LENGTH));
        });
    }
}
