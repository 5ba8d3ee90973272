package io.meshcontrol.core.crypto;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.BoundedMemo;

/**
 * The responder's {@code ss} secrets, X25519 of the server's key with a client's machine key, kept per client. The
 * secret is the same at every handshake of that machine, so a reconnecting client costs three X25519 agreements
 * instead of four. At most {@link #LIMIT} are kept: anyone can start handshakes with made-up machine keys, so when the
 * map is full it is emptied and fills again with the machines that come back.
 */
final class StaticSecrets {

    /** 64 bytes of key and secret, about 200 with the map's own: 13 MiB at the limit. */
    static final int LIMIT = 65_536;

    private final MachinePrivateKey localStatic;
    private final BoundedMemo<MachinePublicKey, byte[]> secrets;

    StaticSecrets(MachinePrivateKey localStatic) {
        this(localStatic, LIMIT);
    }

    StaticSecrets(MachinePrivateKey localStatic, int limit) {
        this.localStatic = localStatic;
        this.secrets = new BoundedMemo<>(limit);
    }

    MachinePrivateKey localStatic() {
        return localStatic;
    }

    /** A copy of the secret: the handshake's state must never change the kept one. */
    byte[] with(MachinePublicKey remoteStatic) throws NoiseProtocolException {
        return secrets.get(remoteStatic, key -> IkHandshake.dh(localStatic, key, "ss")).clone();
    }

    /** Secrets kept now: for tests. */
    int size() {
        return secrets.size();
    }
}
