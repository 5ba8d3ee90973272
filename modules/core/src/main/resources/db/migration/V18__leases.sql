-- Leases: singleton work (reaping, expiry events, deliveries, log streaming) runs on the one instance that holds its
-- lease. expires_at is in the database's clock (epoch milliseconds), never an instance's, so instances with skewed
-- clocks cannot both hold a lease; epoch grows by one whenever the lease changes hands. holder is '' when free.
CREATE TABLE leases (
    name        TEXT     PRIMARY KEY,
    holder      TEXT     NOT NULL,
    epoch       BIGINT   NOT NULL,
    expires_at  BIGINT   NOT NULL
);

-- A delivery being attempted is claimed, in the statement that picks it, until claimed_until (the database's clock):
-- no other worker picks it meanwhile, and a claim left by a dead instance runs out so another one retries it.
ALTER TABLE webhook_outbox ADD COLUMN claim TEXT;
ALTER TABLE webhook_outbox ADD COLUMN claimed_until BIGINT;
