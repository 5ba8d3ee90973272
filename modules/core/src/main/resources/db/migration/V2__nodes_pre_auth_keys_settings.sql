-- Runtime switches of the network, edited through the APIs (the spec keeps them in the database).
CREATE TABLE tailnet_settings (
    singleton                  INTEGER  PRIMARY KEY CHECK (singleton = 1),
    devices_approval_on        BOOLEAN  NOT NULL DEFAULT FALSE,
    users_approval_on          BOOLEAN  NOT NULL DEFAULT FALSE,
    devices_key_duration_days  INTEGER  NOT NULL DEFAULT 0
);
INSERT INTO tailnet_settings (singleton) VALUES (1);

INSERT INTO id_sequences (name, next_value) VALUES ('pre_auth_keys', 1);
INSERT INTO id_sequences (name, next_value) VALUES ('nodes', 1);

-- Keys nodes present at registration (mesh_tailnet_key). Only the secret's hash is kept. A revoked,
-- expired or used-up key stays readable as invalid until it is reaped.
CREATE TABLE pre_auth_keys (
    id             BIGINT   PRIMARY KEY,
    prefix         TEXT     NOT NULL UNIQUE,
    secret_hash    TEXT     NOT NULL,
    user_id        BIGINT   REFERENCES users (id) ON DELETE CASCADE,
    tags           TEXT     NOT NULL DEFAULT '',
    reusable       BOOLEAN  NOT NULL,
    ephemeral      BOOLEAN  NOT NULL,
    preauthorized  BOOLEAN  NOT NULL,
    description    TEXT     NOT NULL DEFAULT '',
    created_at     BIGINT   NOT NULL,
    expires_at     BIGINT   NOT NULL,
    revoked_at     BIGINT,
    use_count      INTEGER  NOT NULL DEFAULT 0,
    last_used_at   BIGINT
);

-- A machine in the network. A tagged node has tags and no user; addresses stay for the node's life.
CREATE TABLE nodes (
    id               BIGINT   PRIMARY KEY,
    stable_id        TEXT     NOT NULL UNIQUE,
    machine_key      TEXT     NOT NULL UNIQUE,
    node_key         TEXT     NOT NULL UNIQUE,
    disco_key        TEXT     NOT NULL DEFAULT '',
    hostname         TEXT     NOT NULL,
    given_name       TEXT     NOT NULL UNIQUE,
    user_id          BIGINT   REFERENCES users (id),
    tags             TEXT     NOT NULL DEFAULT '',
    ipv4             TEXT     NOT NULL UNIQUE,
    ipv6             TEXT     NOT NULL UNIQUE,
    hostinfo         TEXT     NOT NULL DEFAULT '{}',
    endpoints        TEXT     NOT NULL DEFAULT '',
    authorized       BOOLEAN  NOT NULL,
    ephemeral        BOOLEAN  NOT NULL,
    pre_auth_key_id  BIGINT   REFERENCES pre_auth_keys (id) ON DELETE SET NULL,
    register_method  TEXT     NOT NULL,
    created_at       BIGINT   NOT NULL,
    last_seen        BIGINT,
    key_expiry       BIGINT
);
CREATE INDEX nodes_user ON nodes (user_id);
