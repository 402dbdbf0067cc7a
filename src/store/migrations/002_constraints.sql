-- Invariants the database enforces itself, whatever a host forgets to check.

-- Scopes come from the closed set (spec: Scopes).
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_scopes_known
  CHECK (scopes <@ ARRAY['address', 'phone', 'email']::text[]);

-- Bounded identifiers: a jti or client id, a key id.
ALTER TABLE revocations ADD CONSTRAINT revocations_value_length CHECK (char_length(value) BETWEEN 1 AND 512);
ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_kid_length CHECK (char_length(kid) BETWEEN 1 AND 200);

-- At most one key signs at a time. Two replicas starting together on an empty database cannot
-- both create an active key: the second insert fails and that replica reloads the key set.
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active';
