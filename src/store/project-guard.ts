import { planAllowsOAuth, type Plan } from '#common';
import { StoreError } from './errors.ts';
import type { Queryable } from './sql-runner.ts';

/**
 * Locks the project's and its account's rows for the rest of the transaction (so a concurrent delete waits) and
 * returns its plan (the account's); throws when the project does not exist.
 */
export async function lockProject(tx: Queryable, projectId: string): Promise<Plan> {
  // The account's row too: a plan change waits for the client being created under the old plan.
  const rows = await tx.query<{ plan: Plan }>(
    'SELECT a.plan FROM projects p JOIN accounts a ON a.id = p.account_id WHERE p.id = $1 FOR SHARE',
    [projectId],
  );
  if (!rows[0]) throw new StoreError('project_not_found', 'project not found');
  return rows[0].plan;
}

/** Spec "Limits": only business and enterprise projects may hold OAuth clients. */
export async function requireOAuthPlan(tx: Queryable, projectId: string): Promise<void> {
  const plan = await lockProject(tx, projectId);
  if (!planAllowsOAuth(plan)) throw new StoreError('plan_forbids_oauth', `plan "${plan}" cannot have OAuth clients`);
}
