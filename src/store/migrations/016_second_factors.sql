-- A person's second factors for the account portal. A TOTP factor (RFC 6238) keeps its shared
-- secret as is (base32): the server must compute codes from it, so it cannot be hashed. It is
-- unconfirmed (confirmed_at null, never asked for at sign-in) until the person has typed one code
-- from it. last_step is the time step of the last code accepted: a code of that step or an
-- earlier one is refused, so a code works once, on every replica.
CREATE TABLE user_factors (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('totp')),
  label         text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 100),
  totp_secret   text NOT NULL CHECK (totp_secret ~ '^[A-Z2-7]{32}$'),
  last_step     bigint,
  created_at    bigint NOT NULL,
  confirmed_at  bigint,
  last_used_at  bigint
);
CREATE INDEX user_factors_user_idx ON user_factors (user_id);

-- Single-use recovery codes: only a SHA-256 digest (hex) of each (80 random bits) is kept.
CREATE TABLE recovery_codes (
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash  text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  created_at bigint NOT NULL,
  used_at    bigint,
  PRIMARY KEY (user_id, code_hash)
);

-- An owner may require every member of the account to have a second factor.
ALTER TABLE accounts ADD COLUMN require_2fa boolean NOT NULL DEFAULT false;

-- A session is pending while its person has given the password but not yet the second factor:
-- it opens the second-factor page and nothing else. The device (user agent), address and last
-- request time are what the person's list of sessions shows.
ALTER TABLE portal_sessions ADD COLUMN pending boolean NOT NULL DEFAULT false;
ALTER TABLE portal_sessions ADD COLUMN user_agent text CHECK (char_length(user_agent) <= 300);
ALTER TABLE portal_sessions ADD COLUMN address text CHECK (char_length(address) <= 100);
ALTER TABLE portal_sessions ADD COLUMN last_seen_at bigint;
