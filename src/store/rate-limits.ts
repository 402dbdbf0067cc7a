import type { LimitsOverride, Plan } from '#common';
import { type SqlRunner, toNullableNumber, toNumber } from './sql-runner.ts';
import type { ProjectPolicy, RateLimitStore } from './repositories/rate-limits.ts';
import type { DailyUsage, UsageReport, UsageStore } from './repositories/usage.ts';
import type { RepositoryContext } from './repository-context.ts';

/** Sets (or with null, removes) a project's override; false when there is no such project. */
export async function setProjectLimits(
  db: SqlRunner,
  projectId: string,
  override: LimitsOverride | null,
  nowMs: number,
): Promise<boolean> {
  if (override === null) {
    const rows = await db.query<{ id: string }>('SELECT id FROM projects WHERE id = $1', [projectId]);
    await db.query('DELETE FROM project_limits WHERE project_id = $1', [projectId]);
    return rows.length > 0;
  }
  const rows = await db.query<{ project_id: string }>(
    `INSERT INTO project_limits (project_id, override, updated_at)
     SELECT id, $2, $3 FROM projects WHERE id = $1
     ON CONFLICT (project_id) DO UPDATE SET override = excluded.override, updated_at = excluded.updated_at
     RETURNING project_id`,
    [projectId, JSON.stringify(override), nowMs],
  );
  return rows.length > 0;
}

/** Every project's plan (its account's) and override: what the gateways' policy feed serves. */
export async function projectPolicies(db: SqlRunner): Promise<ProjectPolicy[]> {
  const rows = await db.query<{ id: string; plan: Plan; override: string | null }>(
    `SELECT p.id, a.plan, l.override FROM projects p
       JOIN accounts a ON a.id = p.account_id
       LEFT JOIN project_limits l ON l.project_id = p.id
      ORDER BY p.id`,
  );
  return rows.map((r) => ({
    projectId: r.id,
    plan: r.plan,
    override: r.override === null ? null : (JSON.parse(r.override) as LimitsOverride),
  }));
}

/** Adds the gateways' counts; counts of a project that no longer exists are dropped. */
export async function addUsage(db: SqlRunner, reports: readonly UsageReport[]): Promise<void> {
  for (const r of reports) {
    await db.query(
      `INSERT INTO project_usage (project_id, day, calls, quota)
       SELECT id, $2, $3, $4 FROM projects WHERE id = $1
       ON CONFLICT (project_id, day) DO UPDATE
         SET calls = project_usage.calls + excluded.calls, quota = excluded.quota`,
      [r.projectId, r.day, r.calls, r.quota],
    );
  }
}

/** A project's counts for the days from `fromDay` to `toDay` (inclusive, `YYYY-MM-DD`), in order. */
export async function usageBetween(
  db: SqlRunner,
  projectId: string,
  fromDay: string,
  toDay: string,
): Promise<DailyUsage[]> {
  const rows = await db.query<{ day: string; calls: unknown; quota: unknown }>(
    'SELECT day, calls, quota FROM project_usage WHERE project_id = $1 AND day >= $2 AND day <= $3 ORDER BY day',
    [projectId, fromDay, toDay],
  );
  return rows.map((r) => ({ day: r.day, calls: toNumber(r.calls), quota: toNullableNumber(r.quota) }));
}

/**
 * The project of every API key that can be used: key/secret calls count against their project's
 * limits at the gateway. A disabled key's calls, or those of a disabled account's key, are refused,
 * so they must not spend the project's quota.
 */
export async function apiKeyProjects(db: SqlRunner): Promise<Array<{ key: string; projectId: string }>> {
  const rows = await db.query<{ key: string; project_id: string }>(
    `SELECT k.key, k.project_id FROM api_keys k
       JOIN projects p ON p.id = k.project_id JOIN accounts a ON a.id = p.account_id
      WHERE k.enabled AND a.enabled ORDER BY k.key`,
  );
  return rows.map((r) => ({ key: r.key, projectId: r.project_id }));
}

export function rateLimitStore({ db, clock }: RepositoryContext): RateLimitStore {
  return {
    setProjectLimits: (projectId, override) => setProjectLimits(db, projectId, override, clock.now()),
    projectPolicies: () => projectPolicies(db),
    apiKeyProjects: () => apiKeyProjects(db),
  };
}

export function usageStore({ db }: RepositoryContext): UsageStore {
  return {
    addUsage: (reports) => addUsage(db, reports),
    usageBetween: (projectId, fromDay, toDay) => usageBetween(db, projectId, fromDay, toDay),
  };
}
