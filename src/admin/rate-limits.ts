import type { LimitsOverride, Plan } from '#common';
import { requireOperator } from './access.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { notFound } from './errors.ts';
import type { Month, SetLimitsInput } from './input/limits.ts';
import { getProject } from './projects.ts';

export interface ProjectLimits {
  readonly projectId: string;
  readonly plan: Plan;
  /** What replaces the plan's limits for this project (null: the plan as configured). */
  readonly override: LimitsOverride | null;
}

export interface ProjectUsage {
  readonly projectId: string;
  readonly month: string;
  /** Calls the gateways counted this month. */
  readonly calls: number;
  /** The monthly quota the gateways last enforced (null: none). */
  readonly quota: number | null;
  /** Every day of the month up to today (the whole month when it is over), zeros included. */
  readonly days: ReadonlyArray<{ readonly day: string; readonly calls: number }>;
}

export async function getProjectLimits(ctx: AdminContext, actor: Actor, id: string): Promise<ProjectLimits> {
  const project = await getProject(ctx, actor, id);
  const policy = (await ctx.store.projectPolicies()).find((p) => p.projectId === project.id);
  return { projectId: project.id, plan: project.plan, override: policy?.override ?? null };
}

/** Every gateway applies it within `rateLimits.policyRefreshMs` (500 ms by default). */
export async function setProjectLimits(
  ctx: AdminContext,
  actor: Actor,
  id: string,
  input: SetLimitsInput,
): Promise<ProjectLimits> {
  // The operator's: a customer's limits are what their plan and contract say, not theirs to raise.
  requireOperator(actor);
  const project = await getProject(ctx, actor, id);
  if (!(await ctx.store.setProjectLimits(project.id, input.override))) throw notFound('project', id);
  ctx.log.info({ actor, projectId: project.id, override: input.override }, 'admin: project limits set');
  return { projectId: project.id, plan: project.plan, override: input.override };
}

export async function clearProjectLimits(ctx: AdminContext, actor: Actor, id: string): Promise<ProjectLimits> {
  requireOperator(actor);
  const project = await getProject(ctx, actor, id);
  await ctx.store.setProjectLimits(project.id, null);
  ctx.log.info({ actor, projectId: project.id }, 'admin: project limits cleared');
  return { projectId: project.id, plan: project.plan, override: null };
}

/** A project's calls in one UTC month (default: this one), per day, as the gateways reported them. */
export async function projectUsage(ctx: AdminContext, actor: Actor, id: string, month?: Month): Promise<ProjectUsage> {
  const project = await getProject(ctx, actor, id);
  const now = ctx.clock?.now() ?? Date.now();
  const key = month ?? new Date(now).toISOString().slice(0, 7);
  const [year, monthNumber] = key.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const first = `${key}-01`;
  const last = `${key}-${String(daysInMonth).padStart(2, '0')}`;
  const today = new Date(now).toISOString().slice(0, 10);
  const rows = await ctx.store.usageBetween(project.id, first, last);
  const byDay = new Map(rows.map((r) => [r.day, r.calls]));
  const until = today < first ? 0 : today > last ? daysInMonth : Number(today.slice(8, 10));
  const days = Array.from({ length: until }, (_, i) => {
    const day = `${key}-${String(i + 1).padStart(2, '0')}`;
    return { day, calls: byDay.get(day) ?? 0 };
  });
  const calls = rows.reduce((sum, r) => sum + r.calls, 0);
  return { projectId: project.id, month: key, calls, quota: rows.at(-1)?.quota ?? null, days };
}
