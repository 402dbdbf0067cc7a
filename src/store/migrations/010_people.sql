-- The people of the accounts: a person (user) signs in to the account portal with an email and a
-- password, and belongs to one or more accounts with a role.
CREATE TABLE users (
  id             text PRIMARY KEY,
  -- Stored trimmed and lowercased (the one form the portal compares), at most 254 characters.
  email          text NOT NULL UNIQUE CHECK (char_length(email) BETWEEN 3 AND 254 AND email = lower(email)),
  -- `scrypt$N$r$p$salt$key` (base64url); null until the person accepts an invitation.
  password_hash  text CHECK (char_length(password_hash) <= 400),
  created_at     bigint NOT NULL
);

CREATE TABLE memberships (
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  created_at  bigint NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

-- An invitation is a link shown once: only the SHA-256 digest (hex) of its secret is kept, so
-- reading this table gives no link that works. Single use (used_at) and valid 72 hours.
CREATE TABLE invitations (
  token_hash  text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email       text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254 AND email = lower(email)),
  role        text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  created_at  bigint NOT NULL,
  expires_at  bigint NOT NULL,
  used_at     bigint
);
CREATE INDEX invitations_account_idx ON invitations (account_id);

-- A session is a person's (user_id) or, when null, the operator's (the admin-token console).
-- Sessions from before this migration were the operator's, and stay so.
ALTER TABLE portal_sessions ADD COLUMN user_id text REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX portal_sessions_user_idx ON portal_sessions (user_id);
