-- Webhook endpoints, the outbox of deliveries not yet finished, and the history of finished ones.

-- An endpoint: where events go (an http(s) URL, or mailto: for e-mail), how they are shaped (provider, '' for the
-- signed array) and which event types it hears. The secret signs every request, so it is kept as is (a hash cannot
-- sign); it is shown only when made.
CREATE TABLE webhook_endpoints (
    id             TEXT     PRIMARY KEY,
    url            TEXT     NOT NULL,
    provider       TEXT     NOT NULL,
    subscriptions  TEXT     NOT NULL,
    secret         TEXT     NOT NULL,
    creator        TEXT     NOT NULL,
    created_at     BIGINT   NOT NULL,
    updated_at     BIGINT   NOT NULL
);

-- The durable outbox: a delivery is written here before it is first attempted and stays until it is finished, so a
-- restart sends what was pending. events is the JSON array of event objects as they will be sent.
CREATE TABLE webhook_outbox (
    id               BIGINT   PRIMARY KEY,
    endpoint_id      TEXT     NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    events           TEXT     NOT NULL,
    event_types      TEXT     NOT NULL,
    attempts         INTEGER  NOT NULL,
    next_attempt_at  BIGINT   NOT NULL,
    created_at       BIGINT   NOT NULL
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at);

-- Finished deliveries, the last 100 per endpoint. status is the final HTTP status (0 when none came), error what
-- went wrong when it did not succeed; an e-mail that went out has error NULL and status 250.
CREATE TABLE webhook_deliveries (
    id           BIGINT   PRIMARY KEY,
    endpoint_id  TEXT     NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_types  TEXT     NOT NULL,
    status       INTEGER  NOT NULL,
    error        TEXT,
    attempts     INTEGER  NOT NULL,
    duration_ms  BIGINT   NOT NULL,
    finished_at  BIGINT   NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);

INSERT INTO id_sequences (name, next_value) VALUES ('webhook_outbox', 1);
INSERT INTO id_sequences (name, next_value) VALUES ('webhook_deliveries', 1);
