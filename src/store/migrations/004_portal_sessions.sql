-- Account portal sessions, in the database so that every upstream replica on it serves them and
-- a restart or rolling deploy signs nobody out.
-- The session id is the cookie that signs a browser in: only its SHA-256 digest (hex) is kept,
-- so reading this table (or a backup of it) yields no live cookie. The CSRF token is kept as is:
-- without the cookie it is of no use. The flash is the one-shot notice for the next page.
CREATE TABLE portal_sessions (
  id_hash     text PRIMARY KEY CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  -- Creation order: the oldest sessions go first when the bound on their number is reached.
  seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  csrf_token  text NOT NULL CHECK (char_length(csrf_token) BETWEEN 1 AND 128),
  flash       text CHECK (char_length(flash) <= 2000),
  created_at  bigint NOT NULL,
  expires_at  bigint NOT NULL
);
-- Pruning deletes the earliest-expired sessions first, a bounded number per call.
CREATE INDEX portal_sessions_expires_idx ON portal_sessions (expires_at);
