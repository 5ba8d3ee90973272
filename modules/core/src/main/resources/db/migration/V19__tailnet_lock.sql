-- Tailnet lock. Each node's node-key signature, base64 of the client's CBOR encoding, exactly as submitted (peers
-- verify it themselves); NULL while the node has none.
ALTER TABLE nodes ADD COLUMN key_signature TEXT;

-- The authority's AUM log: one chain from the genesis checkpoint (position 0) to the head, each AUM base64 of the
-- bytes its signers signed, named by its hash (base32 of the BLAKE2s-256 digest of those bytes).
CREATE TABLE tailnet_lock_aums (
    position    INTEGER  PRIMARY KEY,
    hash        TEXT     NOT NULL UNIQUE,
    aum         TEXT     NOT NULL,
    added_at    BIGINT   NOT NULL
);

-- The lock's standing beside its log (one row, id 1): once disabled, the disablement secret that did it (hex), which
-- clients still holding the lock are given so that they disable it too; NULL while lock is on.
CREATE TABLE tailnet_lock (
    id                  INTEGER  PRIMARY KEY,
    disablement_secret  TEXT,
    changed_at          BIGINT   NOT NULL
);
