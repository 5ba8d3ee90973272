-- Whether an administrator switched key expiry off for a node (the vendor's keyExpiryDisabled), kept apart from a NULL
-- key_expiry, which a network whose node key lifetime is zero gives every node. Nodes without an expiry before this
-- migration keep reading as switched off, as they did.
ALTER TABLE nodes ADD COLUMN key_expiry_disabled INTEGER NOT NULL DEFAULT 0;
UPDATE nodes SET key_expiry_disabled = 1 WHERE key_expiry IS NULL;
