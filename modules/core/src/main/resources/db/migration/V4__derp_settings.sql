-- DERP settings saved at runtime (PUT /api/v1/derp), as one JSON document. No row: the configuration file's
-- derp.* values are in force. DELETE /api/v1/derp removes the row.
CREATE TABLE derp_settings (
    singleton   INTEGER  PRIMARY KEY CHECK (singleton = 1),
    document    TEXT     NOT NULL,
    updated_at  BIGINT   NOT NULL,
    updated_by  TEXT     NOT NULL
);
