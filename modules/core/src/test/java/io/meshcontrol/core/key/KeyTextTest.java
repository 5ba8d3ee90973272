package io.meshcontrol.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KeyTextTest {

    private static final String HEX64 = "0123456789abcdeffedcba9876543210" + "0123456789abcdeffedcba987654321f";
    private static final String PRIVATE_HEX = "8dfd7ad2b8a8a3d05ec5c06ec5a1ee94c5b33ab7bd26aa1f3e0cf1f7b4cd7a4f";

    static Stream<Arguments> keyTypes() {
        return Stream.of(
                Arguments.of("mkey:", (Function<String, Curve25519Key>) MachinePublicKey::parse),
                Arguments.of("nodekey:", (Function<String, Curve25519Key>) NodePublicKey::parse),
                Arguments.of("discokey:", (Function<String, Curve25519Key>) DiscoPublicKey::parse),
                Arguments.of("chalpub:", (Function<String, Curve25519Key>) ChallengePublicKey::parse),
                Arguments.of("privkey:", (Function<String, Curve25519Key>) MachinePrivateKey::parse),
                Arguments.of("privkey:", (Function<String, Curve25519Key>) NodePrivateKey::parse));
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void textFormRoundTrips(String prefix, Function<String, Curve25519Key> parse) {
        Curve25519Key key = parse.apply(prefix + HEX64.substring(1) + "7");
        assertEquals(prefix + HEX64.substring(1) + "7", key.toText());
        assertEquals(key, parse.apply(key.toText()));
        assertEquals(key.hashCode(), parse.apply(key.toText()).hashCode());
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void upperCaseHexIsAcceptedAndWrittenInLowerCase(String prefix, Function<String, Curve25519Key> parse) {
        Curve25519Key key = parse.apply(prefix + HEX64.toUpperCase());
        assertEquals(prefix + HEX64, key.toText());
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void wrongPrefixIsNamed(String prefix, Function<String, Curve25519Key> parse) {
        String other = prefix.equals("nodekey:") ? "mkey:" : "nodekey:";
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> parse.apply(other + HEX64));
        assertEquals(KeyFormatException.Problem.WRONG_PREFIX, e.problem());
        assertEquals("key text must start with '" + prefix + "', found '" + other + "'", e.getMessage());
        KeyFormatException bare = assertThrows(KeyFormatException.class, () -> parse.apply(HEX64));
        assertEquals(KeyFormatException.Problem.WRONG_PREFIX, bare.problem());
        assertEquals("key text must start with '" + prefix + "'", bare.getMessage());
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void wrongLengthIsNamed(String prefix, Function<String, Curve25519Key> parse) {
        for (String digits : List.of(HEX64.substring(1), HEX64 + "0", "")) {
            KeyFormatException e = assertThrows(KeyFormatException.class, () -> parse.apply(prefix + digits));
            assertEquals(KeyFormatException.Problem.WRONG_LENGTH, e.problem());
            assertEquals("'" + prefix + "' key must have 64 hex digits after the prefix, found " + digits.length(),
                    e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void nonHexCharacterIsNamedWithoutEchoingTheKey(String prefix, Function<String, Curve25519Key> parse) {
        String text = prefix + HEX64.substring(0, 10) + "g" + HEX64.substring(11);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> parse.apply(text));
        assertEquals(KeyFormatException.Problem.INVALID_HEX, e.problem());
        assertEquals("'" + prefix + "' key has a character that is not a hex digit at position 10 after the prefix",
                e.getMessage());
        assertFalse(e.getMessage().contains(HEX64.substring(0, 10)));
    }

    @Test
    void zeroKeyHasSixtyFourZeros() {
        assertEquals("mkey:" + "0".repeat(64), MachinePublicKey.ZERO.toText());
        assertEquals("nodekey:" + "0".repeat(64), NodePublicKey.ZERO.toText());
        assertTrue(NodePublicKey.parse("nodekey:" + "0".repeat(64)).isZero());
        assertEquals(NodePublicKey.ZERO, NodePublicKey.parse("nodekey:" + "0".repeat(64)));
        assertFalse(NodePublicKey.parse("nodekey:" + HEX64).isZero());
        assertEquals("", NodePublicKey.ZERO.shortString());
    }

    @Test
    void keysOfDifferentTypesAreNeverEqual() {
        byte[] raw = HexFormat.of().parseHex(HEX64);
        assertNotEquals(MachinePublicKey.fromRaw(raw), NodePublicKey.fromRaw(raw));
        assertNotEquals(NodePublicKey.fromRaw(raw), DiscoPublicKey.fromRaw(raw));
        assertEquals(MachinePublicKey.fromRaw(raw), MachinePublicKey.fromRaw(raw.clone()));
    }

    @Test
    void rawBytesAreCopiedInAndOut() {
        byte[] raw = HexFormat.of().parseHex(HEX64);
        MachinePublicKey key = MachinePublicKey.fromRaw(raw);
        raw[0] = 99;
        key.bytes()[1] = 99;
        assertEquals("mkey:" + HEX64, key.toText());
        assertThrows(IllegalArgumentException.class, () -> MachinePublicKey.fromRaw(new byte[31]));
    }

    @Test
    void privateKeysDoNotShowThemselvesInToString() {
        MachinePrivateKey machine = MachinePrivateKey.parse("privkey:" + PRIVATE_HEX);
        NodePrivateKey node = NodePrivateKey.parse("privkey:" + PRIVATE_HEX);
        assertFalse(machine.toString().contains(PRIVATE_HEX));
        assertFalse(node.toString().contains(PRIVATE_HEX));
        assertTrue(machine.toString().contains(machine.publicKey().toText()));
        assertEquals("privkey:" + PRIVATE_HEX, machine.toText());
    }

    @Test
    void publicKeysShowTheirTextForm() {
        NodePublicKey key = NodePublicKey.parse("nodekey:" + HEX64);
        assertEquals("nodekey:" + HEX64, key.toString());
        // Tailscale's log form: "[" + the first five base64 characters + "]".
        assertEquals("[ASNFZ]", key.shortString());
    }
}
