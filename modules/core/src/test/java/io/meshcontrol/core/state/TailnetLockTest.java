package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.lock.Aum;
import io.meshcontrol.core.lock.AumHash;
import io.meshcontrol.core.lock.LockCrypto;
import io.meshcontrol.core.lock.LockMapInfo;
import io.meshcontrol.core.lock.LockStatus;
import io.meshcontrol.core.lock.SigningKey;
import io.meshcontrol.core.testing.TestSigner;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's part of the tailnet lock: what it keeps, what it refuses, and what maps and a restart carry. */
class TailnetLockTest {

    private static final byte[] SECRET = {1, 2, 3, 4};

    @TempDir
    Path folder;
    TestNetwork net;
    TailnetLock lock;
    Node a;
    Node b;
    final TestSigner keyA = new TestSigner();
    final TestSigner keyB = new TestSigner();
    String authKey;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        lock = net.network.tailnetLock();
        net.user("alice", Role.MEMBER);
        authKey = net.authKey(AuthKey.forUser("alice").reusable().preauthorized());
        a = net.join(Machine.named("a"), authKey);
        b = net.join(Machine.named("b"), authKey);
    }

    /** Lock on, trusting a's and b's keys, a and b signed by a's key. */
    private AumHash init() {
        byte[] genesis = keyA.genesis(List.of(keyA, keyB), LockCrypto.disablementValue(SECRET));
        List<TailnetLock.SignInfo> need = lock.initBegin(a, genesis);
        assertEquals(List.of(a.id(), b.id()), need.stream().map(TailnetLock.SignInfo::nodeId).sorted().toList());
        lock.initFinish(a, Map.of(a.id(), keyA.sign(a.nodeKey()), b.id(), keyA.sign(b.nodeKey())));
        return AumHash.of(genesis);
    }

    private Node node(long id) {
        return net.network.snapshots().current().node(id).orElseThrow();
    }

    @Test
    void initTurnsLockOnWithEveryNodeSignedAndMapsCarryTheHead() {
        assertNull(lock.mapInfo(), "maps say nothing of a lock never initialised");
        AumHash head = init();

        LockStatus status = lock.status(net.admin);
        assertTrue(status.enabled());
        assertEquals(head.text(), status.head());
        assertEquals(List.of(keyA.text(), keyB.text()), status.keys().stream().map(SigningKey::text).toList());
        assertEquals(List.of(), status.lockedOut());
        assertEquals(LockMapInfo.on(head), net.network.mapContext().current().tailnetLock());
        assertTrue(node(b.id()).keySignature() != null, "b's signature is on its row, for its peers' maps");
        AuditEntry entry = net.network.auditLog().recent("lock.init", 1).getFirst();
        assertEquals("node:" + a.id(), entry.actor());
        assertEquals("2", entry.details().get("signedNodes"));
    }

    @Test
    void aNodeJoiningLaterIsLockedOutUntilATrustedKeySignsIt() {
        init();
        Node c = net.join(Machine.named("c"), authKey);
        LockStatus status = lock.status(net.admin);
        assertEquals(List.of(c.id()), status.lockedOut().stream().map(n -> n.id()).toList());
        assertEquals("tailscale lock sign " + c.nodeKey().toText(), status.lockedOut().getFirst().signCommand());

        TestSigner stranger = new TestSigner();
        MeshException refused = assertThrows(MeshException.class, () -> lock.sign(a, stranger.sign(c.nodeKey())));
        assertTrue(refused.getMessage().contains("not a trusted key"), refused.getMessage());
        assertEquals(1, lock.status(net.admin).lockedOut().size());

        lock.sign(b, keyB.sign(c.nodeKey()));
        assertEquals(List.of(), lock.status(net.admin).lockedOut());
        assertTrue(lock.lockedOut(node(c.id())).isEmpty());
    }

    @Test
    void aNodeRotatingItsKeyKeepsItsPlaceWithTheSignatureItsRotationKeyMade() {
        init();
        TestSigner rotationKey = new TestSigner();
        NodePublicKey oldKey = NodePrivateKey.generate().publicKey();
        NodePublicKey newKey = NodePrivateKey.generate().publicKey();
        Node c = net.join(Machine.named("c").nodeKey(newKey), authKey);
        assertEquals(1, lock.status(net.admin).lockedOut().size());

        TestSigner stranger = new TestSigner();
        assertFalse(lock.ownSignature(c, keyA.rotate(oldKey, NodePrivateKey.generate().publicKey(), rotationKey)),
                "a rotation to another node key");
        assertFalse(lock.ownSignature(c, stranger.rotate(oldKey, newKey, rotationKey)),
                "nesting a signature by a key the authority does not trust");
        assertEquals(1, lock.status(net.admin).lockedOut().size());

        assertTrue(lock.ownSignature(c, keyA.rotate(oldKey, newKey, rotationKey)));
        assertEquals(List.of(), lock.status(net.admin).lockedOut());
        assertEquals("rotation", net.network.auditLog().recent("lock.sign", 1).getFirst().details().get("kind"));
        assertEquals(3, lock.signaturesBy(SigningKey.of(keyA.publicKey(), 1).publicHex()).size(),
                "the rotation is a's key's (through its nested signature), beside a's and b's own");
    }

    @Test
    void keyChangesMustFollowTheHeadAndBeSignedByATrustedKey() {
        AumHash genesis = init();
        TestSigner keyC = new TestSigner();
        assertThrows(MeshException.class, () -> lock.receive(a, List.of(keyC.addKey(genesis, keyC))),
                "signed by a key the authority does not trust");
        AumHash added = lock.receive(a, List.of(keyA.addKey(genesis, keyC)));
        assertEquals(3, lock.status(net.admin).keys().size());
        MeshException stale = assertThrows(MeshException.class,
                () -> lock.receive(a, List.of(keyA.removeKey(genesis, keyB))));
        assertEquals(MeshException.Reason.CONFLICT, stale.reason());

        // Removing b's key: what b signed no longer holds, what a signed does.
        Node c = net.join(Machine.named("c"), authKey);
        lock.sign(b, keyB.sign(c.nodeKey()));
        assertEquals(1, lock.signaturesBy(SigningKey.of(keyB.publicKey(), 1).publicHex()).size(),
                "what b's key signed: only c (a signed a and b at init)");
        AumHash removed = lock.receive(a, List.of(keyA.removeKey(added, keyB)));
        assertEquals(removed.text(), lock.status(net.admin).head());
        assertEquals(List.of(c.id()), lock.status(net.admin).lockedOut().stream().map(n -> n.id()).toList());
        assertEquals(net.network.mapContext().current().tailnetLock(), LockMapInfo.on(removed));
        // A sync that offers what the server has answers what comes after it.
        TailnetLock.SyncOffer offer = lock.offer(genesis, List.of());
        assertEquals(2, offer.missing().size());
        assertEquals(Aum.Kind.REMOVE_KEY, Aum.decode(offer.missing().get(1)).kind());
    }

    @Test
    void aRestartedServerKeepsTheLogTheKeysAndTheSignatures() {
        AumHash genesis = init();
        TestSigner keyC = new TestSigner();
        AumHash head = lock.receive(a, List.of(keyA.addKey(genesis, keyC)));

        TailnetLock reopened = net.reopened(folder).tailnetLock();
        LockStatus status = reopened.status(net.admin);
        assertTrue(status.enabled());
        assertEquals(head.text(), status.head());
        assertEquals(3, status.keys().size());
        assertEquals(List.of(), status.lockedOut(), "both signatures read back and still hold");
        assertArrayEquals(lock.bootstrap().genesisAum(), reopened.bootstrap().genesisAum());
    }

    @Test
    void disablingTakesOneOfTheSecretsAndTellsEveryClient() {
        init();
        MeshException wrong = assertThrows(MeshException.class, () -> lock.disable(b, new byte[] {9}));
        assertEquals(MeshException.Reason.FORBIDDEN, wrong.reason());
        assertTrue(lock.enabled());

        lock.disable(b, SECRET);
        assertFalse(lock.enabled());
        assertEquals(LockMapInfo.DISABLED, net.network.mapContext().current().tailnetLock());
        assertArrayEquals(SECRET, lock.bootstrap().disablementSecret(), "clients still holding lock learn the secret");
        assertNull(node(a.id()).keySignature(), "signatures go with the authority");
        assertFalse(lock.status(net.admin).enabled());
        assertFalse(net.reopened(folder).tailnetLock().enabled(), "disabled across a restart too");
    }
}
