-- Passkeys (WebAuthn) are second factors of a person beside TOTP, in the same table: the list, the
-- count the "require 2FA" rule reads, removal with its last-factor rule and the operator's reset
-- then cover both kinds at once. A passkey keeps its credential id and public key (COSE, base64url:
-- public, nothing secret) and the authenticator's signature counter; it is confirmed when added.
ALTER TABLE user_factors DROP CONSTRAINT user_factors_kind_check;
ALTER TABLE user_factors ADD CONSTRAINT user_factors_kind_check CHECK (kind IN ('totp', 'passkey'));
ALTER TABLE user_factors ALTER COLUMN totp_secret DROP NOT NULL;
ALTER TABLE user_factors ADD COLUMN credential_id text
  CHECK (char_length(credential_id) BETWEEN 16 AND 1400 AND credential_id ~ '^[A-Za-z0-9_-]+$');
ALTER TABLE user_factors ADD COLUMN public_key text CHECK (char_length(public_key) <= 4000);
ALTER TABLE user_factors ADD COLUMN sign_count bigint CHECK (sign_count >= 0);
ALTER TABLE user_factors ADD COLUMN transports text CHECK (char_length(transports) <= 200);
ALTER TABLE user_factors ADD CONSTRAINT user_factors_kind_fields CHECK (
  (kind = 'totp' AND totp_secret IS NOT NULL AND credential_id IS NULL)
  OR (kind = 'passkey' AND totp_secret IS NULL AND credential_id IS NOT NULL AND public_key IS NOT NULL
      AND sign_count IS NOT NULL AND confirmed_at IS NOT NULL));
-- A credential signs in the one person who registered it (and the sign-in without a password finds
-- the person by it).
CREATE UNIQUE INDEX user_factors_credential_idx ON user_factors (credential_id);

-- The challenges handed to the browser, each for one purpose, bound to what asked for it (a digest
-- of the session's label or of the sign-in form's nonce, never the cookie itself) and, but for the
-- sign-in without a password, to one person. Taking one deletes it, in one statement: it works
-- once, on any replica. Rows live minutes: expired ones are pruned when a new one is added.
CREATE TABLE webauthn_challenges (
  challenge   text PRIMARY KEY CHECK (challenge ~ '^[A-Za-z0-9_-]{43}$'),
  purpose     text NOT NULL CHECK (purpose IN ('register', 'second_step', 'sign_in')),
  binding     text NOT NULL CHECK (binding ~ '^[0-9a-f]{64}$'),
  user_id     text REFERENCES users (id) ON DELETE CASCADE,
  expires_at  bigint NOT NULL
);
CREATE INDEX webauthn_challenges_expiry_idx ON webauthn_challenges (expires_at);
