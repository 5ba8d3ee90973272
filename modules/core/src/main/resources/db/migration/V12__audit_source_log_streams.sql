-- The audit log says where a change came from, and is streamed to one outside log service.

-- The address of the request that made the change; empty for entries written before this column, and for changes
-- that did not come over the network.
ALTER TABLE audit_log ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_actor ON audit_log (actor, id);
CREATE INDEX audit_log_target ON audit_log (target, id);

-- Where the audit log ("configuration" logs, in the vendor's words) is streamed to: the configuration as given
-- (a JSON document, its token included: the sender needs it), and the cursor of the delivery: the id of the last
-- audit entry the destination acknowledged. Entries after it are what remains to send, so nothing needs an outbox,
-- and a restart resumes there. The counters are what GET .../stream/status shows.
CREATE TABLE log_streams (
    log_type         TEXT     PRIMARY KEY CHECK (log_type = 'configuration'),
    document         TEXT     NOT NULL,
    delivered_to     BIGINT   NOT NULL,
    updated_at       BIGINT   NOT NULL,
    entries_sent     BIGINT   NOT NULL DEFAULT 0,
    bytes_sent       BIGINT   NOT NULL DEFAULT 0,
    requests         BIGINT   NOT NULL DEFAULT 0,
    failed_requests  BIGINT   NOT NULL DEFAULT 0,
    last_activity    BIGINT,
    last_error       TEXT     NOT NULL DEFAULT ''
);
