-- The rate-limit policy feed's change log: one row per change of what the gateways' policy is
-- made of (an account's plan or enabled flag, a project, its override, an API key), written by
-- triggers so that no writer can forget it. A gateway asks for the changes after its cursor
-- instead of every project and key on each poll; it reads everything only at start or after a gap.
CREATE TABLE policy_changes (
  seq         bigserial PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('account', 'project', 'api_key')),
  id          text NOT NULL,
  created_at  bigint NOT NULL
);

-- One row: the feed's identity (a cursor of another store, restored or recreated, is a gap) and
-- the last seq pruned (a cursor before it may have missed changes: a gap).
CREATE TABLE policy_feed (
  epoch           text NOT NULL,
  pruned_through  bigint NOT NULL DEFAULT 0
);
INSERT INTO policy_feed (epoch) VALUES (replace(gen_random_uuid()::text, '-', ''));

-- The lock serialises the writers of policy changes until they commit (readers are not blocked),
-- so seq order is commit order: otherwise a gateway could see seq 8 before seq 7 commits, move
-- its cursor past 7 and never learn of it (as revocations, src/store/revocations.ts). Policy
-- changes are admin operations, rare next to the gateways' polls.
CREATE FUNCTION policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  LOCK TABLE policy_changes IN SHARE ROW EXCLUSIVE MODE;
  IF TG_OP = 'DELETE' THEN changed := to_jsonb(OLD); ELSE changed := to_jsonb(NEW); END IF;
  INSERT INTO policy_changes (kind, id, created_at)
  VALUES (TG_ARGV[0], changed ->> TG_ARGV[1], (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
  RETURN NULL;
END $$;

CREATE TRIGGER accounts_policy AFTER UPDATE OF plan, enabled ON accounts
  FOR EACH ROW WHEN (OLD.plan IS DISTINCT FROM NEW.plan OR OLD.enabled IS DISTINCT FROM NEW.enabled)
  EXECUTE FUNCTION policy_changed('account', 'id');
CREATE TRIGGER projects_policy AFTER INSERT OR DELETE OR UPDATE OF account_id ON projects
  FOR EACH ROW EXECUTE FUNCTION policy_changed('project', 'id');
CREATE TRIGGER project_limits_policy AFTER INSERT OR UPDATE OR DELETE ON project_limits
  FOR EACH ROW EXECUTE FUNCTION policy_changed('project', 'project_id');
CREATE TRIGGER api_keys_policy AFTER INSERT OR DELETE OR UPDATE OF project_id, enabled ON api_keys
  FOR EACH ROW EXECUTE FUNCTION policy_changed('api_key', 'key');
