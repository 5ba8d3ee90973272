-- The network itself: one row, written at first start, never changed.
CREATE TABLE tailnet (
    singleton   INTEGER PRIMARY KEY CHECK (singleton = 1),
    tailnet_id  TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

-- Numeric ids handed out by the application so that they are never reused after a delete.
CREATE TABLE id_sequences (
    name        TEXT    PRIMARY KEY,
    next_value  BIGINT  NOT NULL
);
INSERT INTO id_sequences (name, next_value) VALUES ('users', 1);
INSERT INTO id_sequences (name, next_value) VALUES ('audit_log', 1);

CREATE TABLE users (
    id            BIGINT  PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE,
    display_name  TEXT    NOT NULL DEFAULT '',
    email         TEXT    NOT NULL DEFAULT '',
    role          TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL
);

-- Times are epoch milliseconds (UTC). scopes is a space-separated list; empty means "the owner's role".
CREATE TABLE api_keys (
    id             TEXT    PRIMARY KEY,
    prefix         TEXT    NOT NULL UNIQUE,
    secret_hash    TEXT    NOT NULL,
    owner_user_id  BIGINT  REFERENCES users (id) ON DELETE CASCADE,
    scopes         TEXT    NOT NULL DEFAULT '',
    description    TEXT    NOT NULL DEFAULT '',
    created_at     BIGINT  NOT NULL,
    expires_at     BIGINT  NOT NULL,
    revoked_at     BIGINT,
    last_used_at   BIGINT
);
CREATE INDEX api_keys_owner ON api_keys (owner_user_id);

CREATE TABLE audit_log (
    id       BIGINT  PRIMARY KEY,
    at       BIGINT  NOT NULL,
    actor    TEXT    NOT NULL,
    action   TEXT    NOT NULL,
    target   TEXT    NOT NULL,
    details  TEXT    NOT NULL
);
CREATE INDEX audit_log_action ON audit_log (action, at);
