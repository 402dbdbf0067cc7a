-- private_key_jwt clients (RFC 7523): a client holds either a secret hash or a public JWK set,
-- never both and never neither. Replacing the set is one UPDATE; the token endpoint reads the
-- set from here for every assertion, so a replacement counts at once on every replica.
ALTER TABLE oauth_clients ALTER COLUMN secret_hash DROP NOT NULL;
ALTER TABLE oauth_clients ADD COLUMN jwks jsonb;
ALTER TABLE oauth_clients
  ADD CONSTRAINT oauth_clients_one_credential CHECK ((secret_hash IS NULL) <> (jwks IS NULL));

-- JWT ids seen once (client assertions, DPoP proofs at the token endpoint), kept until the JWT
-- they came in has expired. The primary key decides: of two replicas taking the same jti at
-- once, the second insert finds the row and the JWT is a replay.
CREATE TABLE used_jtis (
  scope       text NOT NULL,
  jti         text NOT NULL,
  expires_at  bigint NOT NULL,
  PRIMARY KEY (scope, jti)
);
CREATE INDEX used_jtis_expires_idx ON used_jtis (expires_at);
