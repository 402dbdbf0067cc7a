-- Secret rotation with an overlap: a client (or an API key) may hold, beside its secret, the one
-- it had before, accepted until `previous_valid_until` (epoch ms) so that its callers can move to
-- the new secret without an outage. At most one previous secret: with the current one, never more
-- than two are valid. A retire, or a rotation with no overlap, clears both columns.
ALTER TABLE oauth_clients ADD COLUMN previous_secret_hash text;
ALTER TABLE oauth_clients ADD COLUMN previous_valid_until bigint;
-- Both or neither, and only beside a secret (a private_key_jwt client has none to rotate).
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_previous_secret CHECK (
  (previous_secret_hash IS NULL) = (previous_valid_until IS NULL)
  AND (previous_secret_hash IS NULL OR secret_hash IS NOT NULL)
);

ALTER TABLE api_keys ADD COLUMN previous_secret_hash text;
ALTER TABLE api_keys ADD COLUMN previous_valid_until bigint;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_previous_secret CHECK (
  (previous_secret_hash IS NULL) = (previous_valid_until IS NULL)
);
