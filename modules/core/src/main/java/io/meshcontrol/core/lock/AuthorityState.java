package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What the authority holds at one AUM: the trusted keys and the disablement values (a checkpoint's state, keys 1 last
 * hash, 2 disablement values, 3 keys, 4 and 5 the state id), and how each kind of AUM changes it, by the clients'
 * rules: a key is added once, the last key cannot be removed, a checkpoint keeps the state id.
 *
 * @param disablementValues the derived values ({@link LockCrypto#disablementValue}), hex
 * @param stateId the two state ids as decimal text ("id1:id2"): they name this authority across checkpoints
 */
public record AuthorityState(List<SigningKey> keys, List<String> disablementValues, String stateId) {

    public AuthorityState {
        keys = List.copyOf(keys);
        disablementValues = List.copyOf(disablementValues);
    }

    static AuthorityState read(JsonNode state) {
        List<String> values = new ArrayList<>();
        JsonNode disablement = state.get("2");
        if (disablement != null && disablement.isArray()) {
            for (JsonNode value : disablement) {
                if (!value.isBinary() || value.binaryValue().length != LockCrypto.DISABLEMENT_LENGTH) {
                    throw MeshException.invalid("a disablement value has " + LockCrypto.DISABLEMENT_LENGTH + " bytes");
                }
                values.add(HexFormat.of().formatHex(value.binaryValue()));
            }
        }
        if (values.isEmpty()) {
            throw MeshException.invalid("the state has no disablement values: lock could never be disabled");
        }
        List<SigningKey> keys = new ArrayList<>();
        JsonNode list = state.get("3");
        if (list != null && list.isArray()) {
            for (JsonNode key : list) {
                keys.add(SigningKey.read(key));
            }
        }
        if (keys.isEmpty()) {
            throw MeshException.invalid("the state trusts no key");
        }
        return new AuthorityState(keys, values, id(state.get("4")) + ":" + id(state.get("5")));
    }

    private static String id(JsonNode value) {
        return value == null || value.isNull() ? "0" : value.bigIntegerValue().toString();
    }

    public Optional<SigningKey> key(String keyIdHex) {
        return keys.stream().filter(k -> k.publicHex().equals(keyIdHex)).findFirst();
    }

    public boolean trusts(String keyIdHex) {
        return key(keyIdHex).isPresent();
    }

    /** Whether {@code secret} derives one of the disablement values. */
    public boolean disabledBy(byte[] secret) {
        byte[] derived = LockCrypto.disablementValue(secret);
        boolean match = false;
        for (String value : disablementValues) {
            match |= LockCrypto.same(derived, HexFormat.of().parseHex(value));
        }
        return match;
    }

    /**
     * Checks that every signature of {@code aum} is a trusted key's and verifies (and that it has one), as the clients
     * check an AUM before applying it.
     */
    void verifySignatures(Aum aum) {
        if (aum.signatures().isEmpty()) {
            throw MeshException.invalid("the AUM is not signed");
        }
        byte[] sigHash = aum.sigHash();
        for (Aum.Signature signature : aum.signatures()) {
            SigningKey key = key(signature.keyIdHex()).orElseThrow(() -> MeshException.invalid(
                    "the AUM is signed by tlpub:" + signature.keyIdHex() + ", which is not a trusted key"));
            if (!LockCrypto.ed25519Verify(key.publicKey(), sigHash, signature.signature())) {
                throw MeshException.invalid("an AUM signature by " + key.text() + " does not verify");
            }
        }
    }

    /** The state after {@code aum} (already verified). */
    AuthorityState apply(Aum aum) {
        return switch (aum.kind()) {
            case ADD_KEY -> {
                SigningKey added = aum.key();
                if (trusts(added.publicHex())) {
                    throw MeshException.conflict("the key " + added.text() + " is trusted already");
                }
                List<SigningKey> next = new ArrayList<>(keys);
                next.add(added);
                yield new AuthorityState(next, disablementValues, stateId);
            }
            case REMOVE_KEY -> {
                String id = aum.keyIdHex();
                if (!trusts(id)) {
                    throw MeshException.invalid("the key tlpub:" + id + " is not trusted");
                }
                if (keys.size() == 1) {
                    throw MeshException.invalid("the last trusted key cannot be removed");
                }
                yield new AuthorityState(keys.stream().filter(k -> !k.publicHex().equals(id)).toList(),
                        disablementValues, stateId);
            }
            case UPDATE_KEY -> {
                String id = aum.keyIdHex();
                SigningKey old = key(id).orElseThrow(() -> MeshException.invalid("the key tlpub:" + id
                        + " is not trusted"));
                Long votes = aum.votes();
                Map<String, String> meta = aum.meta();
                SigningKey updated = new SigningKey(id, votes == null ? old.votes() : votes,
                        meta == null ? old.meta() : meta);
                yield new AuthorityState(keys.stream().map(k -> k.publicHex().equals(id) ? updated : k).toList(),
                        disablementValues, stateId);
            }
            case CHECKPOINT -> {
                AuthorityState checkpoint = aum.checkpointState();
                if (!checkpoint.stateId().equals(stateId)) {
                    throw MeshException.invalid("the checkpoint names another authority (state id "
                            + checkpoint.stateId() + ")");
                }
                yield checkpoint;
            }
            case NO_OP, INVALID -> this; // unknown kinds are ignored, as old clients ignore newer ones
        };
    }
}
