-- What /api/v2 (the vendor's API) keeps beyond the native model.

-- The fourth changeable tailnet setting: nodes are asked for their serial numbers.
ALTER TABLE tailnet_settings ADD COLUMN posture_identity_collection_on BOOLEAN NOT NULL DEFAULT FALSE;

-- DNS saved at runtime, as one JSON document (read and written whole). No row: the configuration file's dns.* values
-- are in force. MagicDNS is never saved here: it stays the configuration's.
CREATE TABLE dns_settings (
    singleton   INTEGER  PRIMARY KEY CHECK (singleton = 1),
    document    TEXT     NOT NULL,
    updated_at  BIGINT   NOT NULL,
    updated_by  TEXT     NOT NULL
);

-- Services (the vendor's VIP services, svc:<name>): a name with its own addresses from the node pool, the ports it
-- serves and the tags of the nodes that host it. The rest (comment, annotations) is kept as given.
CREATE TABLE vip_services (
    name        TEXT     PRIMARY KEY,
    ipv4        TEXT     NOT NULL UNIQUE,
    ipv6        TEXT     NOT NULL UNIQUE,
    document    TEXT     NOT NULL,
    updated_at  BIGINT   NOT NULL
);

-- Device posture integrations, one per provider. The client secret is kept to call the provider; never returned.
CREATE TABLE posture_integrations (
    id             TEXT     PRIMARY KEY,
    provider       TEXT     NOT NULL UNIQUE,
    cloud_id       TEXT     NOT NULL DEFAULT '',
    client_id      TEXT     NOT NULL DEFAULT '',
    tenant_id      TEXT     NOT NULL DEFAULT '',
    client_secret  TEXT     NOT NULL,
    updated_at     BIGINT   NOT NULL
);

-- Custom posture attributes of a node (custom:<name>), gone with the node.
CREATE TABLE node_posture_attributes (
    node_id     BIGINT   NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
    name        TEXT     NOT NULL,
    value       TEXT     NOT NULL,
    expires_at  BIGINT,
    comment     TEXT     NOT NULL DEFAULT '',
    PRIMARY KEY (node_id, name)
);
