package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.core.key.ChallengePublicKey;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.net.IpAddressPort;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every record survives write-then-read unchanged, and writing again gives the same bytes. */
class WireRoundTripTest {

    static Stream<Arguments> documents() {
        return Stream.of(
                Arguments.of("full map", WireSamples.fullMap(3)),
                Arguments.of("delta map", WireSamples.deltaMap()),
                Arguments.of("explicitly empty fields", WireSamples.explicitEmpty()),
                Arguments.of("keep-alive", MapResponse.KEEP_ALIVE),
                Arguments.of("zero keys and empty values Go omits", Node.builder().id(9)
                        .machine(MachinePublicKey.ZERO).discoKey(DiscoPublicKey.ZERO).tags(List.of())
                        .keySignature(Base64Bytes.of(new byte[0])).created(GoTime.ZERO).build()),
                Arguments.of("register response", WireSamples.registered()),
                Arguments.of("pending login", RegisterResponse.authorizationPending("https://x/register/1")),
                Arguments.of("register failure", RegisterResponse.failure("invalid key")),
                Arguments.of("server key", OverTLSPublicKeyResponse.noiseOnly(
                        MachinePublicKey.fromRaw(WireSamples.pattern(1)))),
                Arguments.of("early noise", new EarlyNoise(ChallengePublicKey.fromRaw(WireSamples.pattern(2)))),
                Arguments.of("register request", new RegisterRequest(CapabilityVersion.CURRENT,
                        WireSamples.nodeKey(1), WireSamples.nodeKey(2), null, new RegisterRequest.Auth("tskey-1"),
                        Instant.ofEpochSecond(123), "https://x/register/1", WireSamples.hostinfo("a", 1), true,
                        Base64Bytes.of(new byte[] {1}), "signature-v2", WireSamples.NOW, Base64Bytes.of(new byte[] {2}),
                        Base64Bytes.of(new byte[] {3}), "required:example.com")),
                Arguments.of("map request", new MapRequest(CapabilityVersion.CURRENT, "zstd", true,
                        WireSamples.nodeKey(1), DiscoPublicKey.fromRaw(WireSamples.pattern(3)), "hwattestpub:00",
                        Base64Bytes.of(new byte[] {4}), WireSamples.NOW, true, WireSamples.hostinfo("b", 2), "h", 3,
                        List.of(IpAddressPort.parse("192.0.2.1:41641")), List.of(2), "head", false, false,
                        List.of("warn-ip-forwarding-off"), "t")),
                Arguments.of("ping response", new PingResponse("disco", "100.64.0.2", "100.64.0.2", "b", "", 0.0123,
                        "192.0.2.1:41641", "", 900, "home", 0, false)),
                Arguments.of("hold-and-delegate answer", WireSamples.sshPolicy().rules().get(0).action()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void writingThenReadingGivesTheSameRecord(String name, Object record) {
        byte[] json = WireJson.write(record);
        Object read = WireJson.read(json, record.getClass());
        assertEquals(record, read);
        assertEquals(new String(json), WireJson.writeString(read));
    }
}
