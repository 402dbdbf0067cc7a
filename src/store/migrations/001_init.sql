-- tokengate schema v1. One dialect for PGlite (embedded) and PostgreSQL.
-- Times are epoch milliseconds (bigint) except revocations.issued_before/expires_at (epoch seconds).

CREATE TABLE projects (
  id          text PRIMARY KEY,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  plan        text NOT NULL CHECK (plan IN ('free', 'business', 'enterprise')),
  created_at  bigint NOT NULL
);

CREATE TABLE oauth_clients (
  client_id    text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  scopes       text[] NOT NULL,
  enabled      boolean NOT NULL DEFAULT true,
  secret_hash  text NOT NULL,
  created_at   bigint NOT NULL
);
CREATE INDEX oauth_clients_project_idx ON oauth_clients (project_id);

CREATE TABLE api_keys (
  key          text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  secret_hash  text NOT NULL,
  created_at   bigint NOT NULL
);
CREATE INDEX api_keys_project_idx ON api_keys (project_id);

CREATE TABLE signing_keys (
  kid           text PRIMARY KEY,
  alg           text NOT NULL,
  status        text NOT NULL CHECK (status IN ('next', 'active', 'retired')),
  public_jwk    jsonb NOT NULL,
  private_key   text NOT NULL,
  created_at    bigint NOT NULL,
  activated_at  bigint,
  retired_at    bigint
);

CREATE TABLE revocations (
  seq            bigserial PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('jti', 'client')),
  value          text NOT NULL,
  issued_before  bigint,
  expires_at     bigint NOT NULL,
  created_at     bigint NOT NULL
);
CREATE INDEX revocations_expires_idx ON revocations (expires_at);
