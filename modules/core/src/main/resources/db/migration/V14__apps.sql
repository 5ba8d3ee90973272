-- Apps: domain sets reached through app connector nodes. The name is unique; the rest (description, domains,
-- connectors, static routes) is one JSON document, read and written whole.
CREATE TABLE apps (
    id          BIGINT   PRIMARY KEY,
    name        TEXT     NOT NULL UNIQUE,
    document    TEXT     NOT NULL,
    created_at  BIGINT   NOT NULL,
    updated_at  BIGINT   NOT NULL
);
INSERT INTO id_sequences (name, next_value) VALUES ('apps', 1);

-- Routes a connector learned and the server approved because of an app (single addresses, prefixes inside static
-- routes): the approvals the server drops again when the connector withdraws them or no app is left for it.
CREATE TABLE app_learned_routes (
    node_id     BIGINT   NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
    prefix      TEXT     NOT NULL,
    PRIMARY KEY (node_id, prefix)
);
