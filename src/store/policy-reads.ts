import type { LimitsOverride, Plan } from '#common';
import type { KeyProject, ProjectPolicy } from './repositories/rate-limits.ts';
import type { SqlRunner } from './sql-runner.ts';

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

/**
 * The project of every API key that can be used: key/secret calls count against their project's
 * limits at the gateway. A disabled key's calls, or those of a disabled account's key, are refused,
 * so they must not spend the project's quota.
 */
export async function apiKeyProjects(db: SqlRunner): Promise<KeyProject[]> {
  const rows = await db.query<{ key: string; project_id: string }>(
    `SELECT k.key, k.project_id FROM api_keys k
       JOIN projects p ON p.id = k.project_id JOIN accounts a ON a.id = p.account_id
      WHERE k.enabled AND a.enabled ORDER BY k.key`,
  );
  return rows.map((r) => ({ key: r.key, projectId: r.project_id }));
}
