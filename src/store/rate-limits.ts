import type { LimitsOverride } from '#common';
import { type SqlRunner, toNullableNumber, toNumber } from './sql-runner.ts';
import type { RateLimitStore } from './repositories/rate-limits.ts';
import type { DailyUsage, UsageReport, UsageStore } from './repositories/usage.ts';
import type { RepositoryContext } from './repository-context.ts';
import { policyChangesSince, prunePolicyChanges } from './policy-changes.ts';
import { apiKeyProjects, projectPolicies } from './policy-reads.ts';

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

export function rateLimitStore({ db, clock }: RepositoryContext): RateLimitStore {
  return {
    setProjectLimits: (projectId, override) => setProjectLimits(db, projectId, override, clock.now()),
    projectPolicies: () => projectPolicies(db),
    apiKeyProjects: () => apiKeyProjects(db),
    policyChangesSince: (cursor, limit) => policyChangesSince(db, cursor, limit),
    prunePolicyChanges: (olderThanMs) => prunePolicyChanges(db, olderThanMs),
  };
}

export function usageStore({ db }: RepositoryContext): UsageStore {
  return {
    addUsage: (reports) => addUsage(db, reports),
    usageBetween: (projectId, fromDay, toDay) => usageBetween(db, projectId, fromDay, toDay),
  };
}
