package io.meshcontrol.core.lock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.NodePublicKey;
import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * The tailnet lock's encodings against the clients': a genesis AUM a real client made (the vendor's test vector of
 * 2025-11-07, whose second state id is above 2^63), the vendor's byte layouts, and signatures made here with ed25519.
 */
class LockCodecTest {

    /** A genesis checkpoint made by a real client, signed by its first key. */
    static final byte[] REAL_GENESIS = Base64.getDecoder().decode("pAEFAvYFpQH2AopYII0sLaLSEZU3W5DT1dG2WYnzjCBr4tXtVbCT2LvA9LS6WCAQhwVGDiUGRiu3P63gucZ/8otjt2DXyk+OBjbh5iWx1Fgg5VU4oRQiMoq5qK00McfpwtmjcheVammLCRwzdp2Zje9YIHDoOXe4ogPSy7lfA/veyPCKM6iZe3PTgzhQZ4W5Sh7wWCBYQtiQ6NcRlyVARJxgAj1BbbvdJQ0t4m+vHqU1J02oDlgg2sksJA+COfsBkrohwHBWlbKrpS8Mvigpl+enuHw9rIJYIB/+CUBBBLUz0KeHu7NKrg5ZEhjjPUWhNcf9QTNHjuNWWCCJuxqPZ6/IASPTmAERaoKnBNH/D+zY4p4TUGHR4fACjFggMtDAipPutgcxKnU9Tg2663gP3KlTQfztV3hBwiePZdRYIGYeD2erBkRouSL20lOnWHHlRq5kmNfN6xFb2CTaPjnXA4KjAQECAQNYIADftG3yaitV/YMoKSBP45zgyeodClumN9ZaeQg/DmCEowEBAgEDWCBRKbmWSzOyHXbHJuYn8s7dmMPDzxmIjgBoA80cBYgItAQbEWOrxfqJzIkFG/5uNUp0s/ScF4GiAVggAN+0bfJqK1X9gygpIE/jnODJ6h0KW6Y31lp5CD8OYIQCWEAENvzblKV2qx6PED5YdGy8kWa7nxEnaeuMmS5Wkx0n7CXs0XxD5f2NIE+pSv9cOsNkfYNndQkYD7ne33hQOsQM");

    private static final CBORMapper CBOR = CBORMapper.builder().build();

    @Test
    void aRealClientsGenesisDecodesAndItsSignatureVerifies() {
        Aum genesis = Aum.decode(REAL_GENESIS);
        assertEquals(Aum.Kind.CHECKPOINT, genesis.kind());
        assertNull(genesis.parent());
        AuthorityState state = genesis.checkpointState();
        assertEquals(List.of(hex("AN+0bfJqK1X9gygpIE/jnODJ6h0KW6Y31lp5CD8OYIQ="),
                hex("USm5lkszsh12xybmJ/LO3ZjDw88ZiI4AaAPNHAWICLQ=")),
                state.keys().stream().map(SigningKey::publicHex).toList());
        assertEquals(10, state.disablementValues().size());
        assertEquals("1253033988139371657:18333649726973670556", state.stateId());
        assertEquals(1, genesis.signatures().size());
        LockChain chain = LockChain.start(genesis);
        assertEquals(genesis.hash(), chain.head());
        assertArrayEquals(LockCrypto.blake2s256(REAL_GENESIS), chain.head().bytes());
    }

    @Test
    void aGenesisChangedAfterSigningIsRefused() {
        byte[] changed = REAL_GENESIS.clone();
        changed[20] ^= 1; // inside the first disablement value
        MeshException refused = assertThrows(MeshException.class, () -> LockChain.start(Aum.decode(changed)));
        assertTrue(refused.getMessage().contains("does not verify"), refused.getMessage());
    }

    @Test
    void aumHashesReadAndWriteTheirBase32Text() {
        AumHash hash = AumHash.of(REAL_GENESIS);
        assertEquals(52, hash.text().length());
        assertEquals(hash, AumHash.parse(hash.text()));
        assertThrows(MeshException.class, () -> AumHash.parse("not-a-hash"));
    }

    @Test
    void theVendorsRemoveKeyLayoutDecodes() {
        // {1: 2 (remove-key), 2: null (no parent), 4: h'0102'}
        Aum aum = Aum.decode(new byte[] {(byte) 0xa3, 0x01, 0x02, 0x02, (byte) 0xf6, 0x04, 0x42, 0x01, 0x02});
        assertEquals(Aum.Kind.REMOVE_KEY, aum.kind());
        assertNull(aum.parent());
        assertEquals("0102", aum.keyIdHex());
        assertEquals(List.of(), aum.signatures());
    }

    @Test
    void somethingElseThanACanonicalMapIsRefused() {
        assertThrows(MeshException.class, () -> Aum.decode(new byte[] {(byte) 0x83, 1, 2, 3}));
        assertThrows(MeshException.class, () -> Aum.decode(new byte[0]));
        // keys out of order: {2: null, 1: 1}
        assertThrows(MeshException.class, () -> Aum.decode(new byte[] {(byte) 0xa2, 0x02, (byte) 0xf6, 0x01, 0x01}));
    }

    @Test
    void aDirectSignatureByATrustedKeyAuthorisesItsNodeKeyOnly() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        byte[] pub = new byte[32];
        Ed25519.generatePublicKey(secret, 0, pub, 0);
        AuthorityState state = new AuthorityState(List.of(SigningKey.of(pub, 1)), List.of("00".repeat(32)), "1:2");
        NodePublicKey nodeKey = NodePublicKey.fromRaw(random());
        byte[] signature = directSignature(secret, pub, nodeKey);

        NodeKeySignature decoded = NodeKeySignature.decode(signature);
        assertEquals(NodeKeySignature.Kind.DIRECT, decoded.kind());
        assertEquals(nodeKey, decoded.nodeKey());
        assertEquals(HexFormat.of().formatHex(pub), decoded.authorizingKeyIdHex());
        assertTrue(decoded.authorizes(nodeKey, state));
        assertFalse(decoded.authorizes(NodePublicKey.fromRaw(random()), state), "another node key");
        byte[] otherPub = new byte[32];
        Ed25519.generatePublicKey(random(), 0, otherPub, 0);
        AuthorityState otherKeys = new AuthorityState(List.of(SigningKey.of(otherPub, 1)), List.of("00".repeat(32)),
                "1:2");
        assertFalse(decoded.authorizes(nodeKey, otherKeys), "a key the authority does not trust");
    }

    @Test
    void theDisablementValueIsArgon2iOfTheSecret() {
        byte[] secret = HexFormat.of().parseHex("01020304");
        byte[] value = LockCrypto.disablementValue(secret);
        assertEquals(32, value.length);
        AuthorityState state = new AuthorityState(List.of(SigningKey.of(random(), 1)),
                List.of(HexFormat.of().formatHex(value)), "1:2");
        assertTrue(state.disabledBy(secret));
        assertFalse(state.disabledBy(HexFormat.of().parseHex("01020305")));
    }

    /** A direct node-key signature as clients encode it: {1: 1, 2: "np"+key, 3: key id, 4: signature}. */
    static byte[] directSignature(byte[] secret, byte[] pub, NodePublicKey nodeKey) {
        byte[] np = new byte[34];
        np[0] = 'n';
        np[1] = 'p';
        System.arraycopy(nodeKey.bytes(), 0, np, 2, 32);
        byte[] unsigned = encode(np, pub, null);
        byte[] sig = new byte[64];
        byte[] digest = LockCrypto.blake2s256(unsigned);
        Ed25519.sign(secret, 0, digest, 0, digest.length, sig, 0);
        return encode(np, pub, sig);
    }

    private static byte[] encode(byte[] np, byte[] keyId, byte[] signature) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = CBOR.createGenerator(out)) {
            g.writeStartObject(null, signature == null ? 3 : 4);
            g.writePropertyId(1);
            g.writeNumber(1);
            g.writePropertyId(2);
            g.writeBinary(np);
            g.writePropertyId(3);
            g.writeBinary(keyId);
            if (signature != null) {
                g.writePropertyId(4);
                g.writeBinary(signature);
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    private static byte[] random() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static String hex(String base64) {
        return HexFormat.of().formatHex(Base64.getDecoder().decode(base64));
    }
}
