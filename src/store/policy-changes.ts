import type { LimitsOverride, Plan } from '#common';
import { apiKeyProjects, projectPolicies } from './policy-reads.ts';
import type { KeyProject, PolicyChanges, PolicyCursor, ProjectPolicy } from './repositories/rate-limits.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';

const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 10_000;

interface Head {
  readonly epoch: string;
  readonly prunedThrough: number;
  readonly last: number;
}

/** The log's identity, its pruned part and its last seq (a PRIMARY KEY lookup each). */
async function head(db: SqlRunner): Promise<Head> {
  const rows = await db.query<{ epoch: string; pruned_through: unknown; last: unknown }>(
    `SELECT epoch, pruned_through, (SELECT coalesce(max(seq), 0) FROM policy_changes) AS last FROM policy_feed`,
  );
  const row = rows[0];
  if (row === undefined) throw new Error('policy_feed has no row (migration 017 not applied?)');
  return { epoch: row.epoch, prunedThrough: toNumber(row.pruned_through), last: toNumber(row.last) };
}

/**
 * The policy feed's answer after `cursor` (src/store/migrations/017_policy_changes.sql). The full
 * read takes the log's last seq before the rows: a change committed in between is in the rows and
 * comes again after the cursor, and applying a change twice is harmless (each names the current state).
 */
export async function policyChangesSince(
  db: SqlRunner,
  cursor: PolicyCursor | null,
  limit = DEFAULT_LIMIT,
): Promise<PolicyChanges> {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new TypeError(`limit must be an integer in 1..${MAX_LIMIT}`);
  const at = await head(db);
  if (
    cursor === null ||
    cursor.epoch !== at.epoch ||
    cursor.seq < at.prunedThrough ||
    cursor.seq > Math.max(at.last, at.prunedThrough)
  ) {
    const [projects, apiKeys] = await Promise.all([projectPolicies(db), apiKeyProjects(db)]);
    const next = { epoch: at.epoch, seq: Math.max(at.last, at.prunedThrough) };
    return { cursor: next, full: true, more: false, projects, apiKeys, removedProjects: [], removedKeys: [] };
  }
  const changes = await db.query<{ seq: unknown; kind: 'account' | 'project' | 'api_key'; id: string }>(
    'SELECT seq, kind, id FROM policy_changes WHERE seq > $1 ORDER BY seq LIMIT $2',
    [cursor.seq, limit],
  );
  const last = changes.at(-1);
  const next = { epoch: at.epoch, seq: last === undefined ? cursor.seq : toNumber(last.seq) };
  const ids = (kind: string) => [...new Set(changes.filter((c) => c.kind === kind).map((c) => c.id))];
  const changed = await resolve(db, ids('account'), ids('project'), ids('api_key'));
  return { cursor: next, full: false, more: changes.length === limit, ...changed };
}

const PROJECT_ROWS = `SELECT p.id, a.plan, l.override FROM projects p
   JOIN accounts a ON a.id = p.account_id
   LEFT JOIN project_limits l ON l.project_id = p.id`;
const KEY_ROWS = `SELECT k.key, k.project_id, k.enabled AND a.enabled AS usable FROM api_keys k
   JOIN projects p ON p.id = k.project_id JOIN accounts a ON a.id = p.account_id`;

/**
 * Rows of `select` for each condition whose ids are not empty, one statement each: an OR of the
 * conditions would make the planner read every key (300,000 tuples at bench size) instead of
 * the few the indexes name.
 */
async function rowsWhere<Row>(db: SqlRunner, select: string, conditions: Array<[string, string[]]>): Promise<Row[]> {
  const wanted = conditions.filter(([, ids]) => ids.length > 0);
  const parts = await Promise.all(wanted.map(([where, ids]) => db.query<Row>(`${select} WHERE ${where}`, [ids])));
  return parts.flat();
}

/** The current state of what changed: an account's projects and keys, a project and its keys, a key. */
async function resolve(db: SqlRunner, accounts: string[], projectIds: string[], keyIds: string[]) {
  const projectRows = await rowsWhere<{ id: string; plan: Plan; override: string | null }>(db, PROJECT_ROWS, [
    ['p.id = ANY($1::text[])', projectIds],
    ['p.account_id = ANY($1::text[])', accounts],
  ]);
  const keyRows = await rowsWhere<{ key: string; project_id: string; usable: boolean }>(db, KEY_ROWS, [
    ['k.key = ANY($1::text[])', keyIds],
    ['k.project_id = ANY($1::text[])', projectIds],
    ['p.account_id = ANY($1::text[])', accounts],
  ]);
  const projects = new Map<string, ProjectPolicy>();
  for (const r of projectRows)
    projects.set(r.id, {
      projectId: r.id,
      plan: r.plan,
      override: r.override === null ? null : (JSON.parse(r.override) as LimitsOverride),
    });
  const apiKeys = new Map<string, KeyProject>();
  for (const r of keyRows) if (r.usable) apiKeys.set(r.key, { key: r.key, projectId: r.project_id });
  const removedKeys = [...new Set([...keyIds, ...keyRows.map((r) => r.key)])].filter((k) => !apiKeys.has(k));
  return {
    projects: [...projects.values()],
    apiKeys: [...apiKeys.values()],
    removedProjects: projectIds.filter((id) => !projects.has(id)),
    removedKeys,
  };
}

/** Deletes the entries older than `olderThanMs` and moves the pruned horizon past them. */
export async function prunePolicyChanges(db: SqlRunner, olderThanMs: number): Promise<number> {
  const rows = await db.query<{ pruned: unknown }>(
    `WITH gone AS (DELETE FROM policy_changes WHERE created_at < $1 RETURNING seq),
          moved AS (UPDATE policy_feed SET pruned_through = greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM gone)))
     SELECT count(*) AS pruned FROM gone`,
    [olderThanMs],
  );
  return toNumber(rows[0]?.pruned ?? 0);
}
