-- OAuth clients (kind 'client', with a secret) and federated identities (kind 'federated', with trust conditions).
-- Times are epoch milliseconds (UTC); scopes and tags are space-separated; custom_claim_rules is a JSON object.
CREATE TABLE oauth_clients (
    id                  TEXT    PRIMARY KEY,
    kind                TEXT    NOT NULL CHECK (kind IN ('client', 'federated')),
    secret_hash         TEXT,
    scopes              TEXT    NOT NULL,
    tags                TEXT    NOT NULL DEFAULT '',
    description         TEXT    NOT NULL DEFAULT '',
    issuer              TEXT,
    audience            TEXT,
    subject             TEXT,
    custom_claim_rules  TEXT,
    creator             TEXT    NOT NULL,
    created_at          BIGINT  NOT NULL,
    updated_at          BIGINT  NOT NULL,
    revoked_at          BIGINT
);

-- Access tokens issued to them, hashed like every secret; they live one hour and are deleted once expired.
CREATE TABLE access_tokens (
    prefix       TEXT    PRIMARY KEY,
    secret_hash  TEXT    NOT NULL,
    client_id    TEXT    NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    scopes       TEXT    NOT NULL,
    tags         TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL
);
CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);
CREATE INDEX access_tokens_client ON access_tokens (client_id);
