-- Who made each API key: the key is bounded by this user's role as well as its owner's, read at request time, and
-- goes with this user when they are deleted, as it goes with its owner. NULL: made by the local administrator, or
-- made before creators were recorded (such keys are bounded by their owner only).
ALTER TABLE api_keys ADD COLUMN creator_user_id BIGINT REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX api_keys_creator ON api_keys (creator_user_id);
