import { planAllowsOAuth, type Plan } from '#common';
import { StoreError } from './errors.ts';
import type { Queryable } from './sql-runner.ts';

/**
 * Locks the project row for the rest of the transaction (so a concurrent delete waits) and
 * returns its plan; throws when the project does not exist.
 */
export async function lockProject(tx: Queryable, projectId: string): Promise<Plan> {
  const rows = await tx.query<{ plan: Plan }>('SELECT plan FROM projects WHERE id = $1 FOR SHARE', [projectId]);
  if (!rows[0]) throw new StoreError('project_not_found', 'project not found');
  return rows[0].plan;
}

/** Spec "Limits": only business and enterprise projects may hold OAuth clients. */
export async function requireOAuthPlan(tx: Queryable, projectId: string): Promise<void> {
  const plan = await lockProject(tx, projectId);
  if (!planAllowsOAuth(plan)) throw new StoreError('plan_forbids_oauth', `plan "${plan}" cannot have OAuth clients`);
}
