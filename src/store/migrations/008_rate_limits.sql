-- A project's override of its plan's rate limits and quota (the admin API sets it; the gateways
-- read it through the policy feed). A table of its own: the project row stays as it is, and a
-- project without an override has no row.
CREATE TABLE project_limits (
  project_id text PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  override text NOT NULL,
  updated_at bigint NOT NULL
);
-- Calls the gateways counted per project and UTC day (`2026-11-27`), and the monthly quota they
-- enforced when they last reported (null: none). The portal's chart and the admin API read it.
CREATE TABLE project_usage (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  day text NOT NULL,
  calls bigint NOT NULL,
  quota bigint,
  PRIMARY KEY (project_id, day)
);
