-- Event triggers of issue 16.

-- A suspended node keeps its row, addresses and key, but is in nobody's map and gets no peers until unsuspended.
ALTER TABLE nodes ADD COLUMN suspended BOOLEAN NOT NULL DEFAULT FALSE;

-- The key expiry whose nodeKeyExpired event went out (null: none yet). Housekeeping compares it with key_expiry,
-- so each expiry is announced once, across restarts too, and a renewed key that expires again is announced again.
ALTER TABLE nodes ADD COLUMN key_expiry_announced BIGINT;

-- Just-in-time access (docs/access-requests.md): a user asks to be in a policy group for a while. state is
-- pending, approved, denied, revoked or expired; an approved request adds the membership until expires_at.
INSERT INTO id_sequences (name, next_value) VALUES ('access_requests', 1);
CREATE TABLE access_requests (
    id            BIGINT   PRIMARY KEY,
    user_id       BIGINT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    grp           TEXT     NOT NULL,
    reason        TEXT     NOT NULL,
    duration_ms   BIGINT   NOT NULL,
    state         TEXT     NOT NULL,
    requested_by  TEXT     NOT NULL,
    created_at    BIGINT   NOT NULL,
    decided_by    TEXT,
    decided_at    BIGINT,
    expires_at    BIGINT,
    ended_at      BIGINT,
    ended_by      TEXT
);
CREATE INDEX access_requests_state ON access_requests (state);
