-- Several instances on one database (docs/high-availability.md, "How instances stay in step"). PostgreSQL only: an
-- SQLite network is served by one process, which has nothing to tell another, so it has none of these tables.

-- Every committed change another instance must reflect in memory: what changed (kind, subject), not the data, which
-- the reader reads again. Appended in the changing transaction; write transactions are serialized by an advisory lock,
-- so the order of seq is the order of commit. Rows older than an hour are pruned.
CREATE TABLE change_log (
    seq         BIGSERIAL   PRIMARY KEY,
    instance_id TEXT        NOT NULL,
    kind        TEXT        NOT NULL,
    subject     TEXT        NOT NULL,
    written_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX change_log_written_at ON change_log (written_at);

-- The instances running now: one row per start, kept fresh by a heartbeat on the database's clock.
CREATE TABLE instances (
    id           TEXT        PRIMARY KEY,
    host         TEXT        NOT NULL,
    started_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Which instance holds a map stream of which node: a node is online while a live instance holds one.
CREATE TABLE node_streams (
    instance_id TEXT   NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    node_id     BIGINT NOT NULL,
    PRIMARY KEY (instance_id, node_id)
);
CREATE INDEX node_streams_node ON node_streams (node_id);
