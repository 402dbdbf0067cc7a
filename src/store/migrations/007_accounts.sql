-- Accounts own projects, and the plan is the account's: every project of an account follows it.
-- A disabled account's clients get no tokens and its API keys are refused (the issuer and the
-- upstream read `enabled` with the project).
CREATE TABLE accounts (
  id          text PRIMARY KEY,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  plan        text NOT NULL CHECK (plan IN ('free', 'business', 'enterprise')),
  enabled     boolean NOT NULL DEFAULT true,
  created_at  bigint NOT NULL
);

-- Existing data: before accounts, each project stood alone with its own plan (`project create
-- --plan P` was a customer of its own). So each project becomes the only project of a new
-- account with the project's name, plan and creation time; the account's id is the project's
-- with `acc_` for `prj_` (ids are unique, so these are, and the mapping can be read back).
INSERT INTO accounts (id, name, plan, enabled, created_at)
SELECT 'acc_' || substr(id, 5), name, plan, true, created_at FROM projects;

ALTER TABLE projects ADD COLUMN account_id text REFERENCES accounts (id);
UPDATE projects SET account_id = 'acc_' || substr(id, 5);
ALTER TABLE projects ALTER COLUMN account_id SET NOT NULL;
-- The plan has one home now: reading a project joins its account.
ALTER TABLE projects DROP COLUMN plan;
CREATE INDEX projects_account_idx ON projects (account_id);
