-- Each account's activity log: who did what to which target, when (UTC, epoch ms) and from which
-- address (null when unknown). Targets are ids, never a secret or a token. Kept with the account.
CREATE TABLE account_activity (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  at          bigint NOT NULL,
  actor       text NOT NULL CHECK (char_length(actor) BETWEEN 1 AND 320),
  action      text NOT NULL CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
  target      text NOT NULL CHECK (char_length(target) <= 500),
  address     text CHECK (char_length(address) <= 100)
);
CREATE INDEX account_activity_account_idx ON account_activity (account_id, seq);
