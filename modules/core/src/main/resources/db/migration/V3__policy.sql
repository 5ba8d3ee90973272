-- The policy file as the user saved it (HuJSON, verbatim). One row once a policy has been saved.
CREATE TABLE policy (
    singleton   INTEGER  PRIMARY KEY CHECK (singleton = 1),
    text        TEXT     NOT NULL,
    updated_at  BIGINT   NOT NULL,
    updated_by  TEXT     NOT NULL
);
