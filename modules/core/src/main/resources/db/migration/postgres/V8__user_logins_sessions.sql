-- Users made by a first OIDC login wait for approval while users approval is on; every other user is approved.
ALTER TABLE users ADD COLUMN approved BOOLEAN NOT NULL DEFAULT TRUE;

-- The issuer identity a person logs in as (the ID token's iss and sub), linked to the user it registers machines for.
CREATE TABLE user_identities (
    issuer   TEXT    NOT NULL,
    subject  TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

-- Browser sessions of people who logged in. Only the SHA-256 of the cookie's secret is kept.
CREATE TABLE browser_sessions (
    secret_hash  TEXT    PRIMARY KEY,
    user_id      BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL
);
CREATE INDEX browser_sessions_user ON browser_sessions (user_id);
