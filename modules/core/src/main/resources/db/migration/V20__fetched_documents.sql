-- What the server fetched from outside for the whole network: the DERP maps at map URLs, the latest client release,
-- the ACME account, certificate and challenge answers. One instance fetches (on PostgreSQL the holder of the singleton
-- lease) and every instance uses what is stored here; a restart starts from the last copies, even offline.
-- fetched_at: epoch milliseconds, when the body was last fetched (or found unchanged).
CREATE TABLE fetched_documents (
    name        TEXT     PRIMARY KEY,
    body        TEXT     NOT NULL,
    fetched_at  BIGINT   NOT NULL
);
