import type { LimitsOverride, Plan } from '#common';
import { PLANS } from '#common';
import { type Limit, rateLimit } from './limit.ts';
import type { PlanLimits, RateLimitsConfig } from './schema.ts';

export interface GroupRules {
  readonly client: Limit | undefined;
  readonly project: Limit | undefined;
}

/** What one project is held to: per route group, and its monthly quota. */
export interface ProjectRules {
  readonly groups: ReadonlyMap<string, GroupRules>;
  readonly monthlyQuota: number | undefined;
}

/** The plans of one configuration, compiled once (a reload compiles them again). */
export interface CompiledPlans {
  readonly config: RateLimitsConfig;
  readonly byPlan: Readonly<Record<Plan, ProjectRules>>;
  readonly defaultRules: ProjectRules;
}

export function compilePlans(config: RateLimitsConfig): CompiledPlans {
  const byPlan = Object.fromEntries(PLANS.map((p) => [p, compileRules(config.plans[p], undefined)])) as Record<
    Plan,
    ProjectRules
  >;
  return { config, byPlan, defaultRules: byPlan[config.defaultPlan] };
}

/** A plan with a project's override laid over it: what the override names wins, `null` removes. */
export function compileRules(plan: PlanLimits, override: LimitsOverride | undefined): ProjectRules {
  const groups = new Map<string, GroupRules>();
  const names = new Set([...Object.keys(plan.groups), ...Object.keys(override?.groups ?? {})]);
  for (const name of names) {
    const base = plan.groups[name];
    const over = override?.groups?.[name];
    const pick = (key: 'client' | 'project') => {
      const rate = over?.[key] === undefined ? base?.[key] : over[key];
      return rate ? rateLimit(key, rate.requests, rate.windowSec) : undefined;
    };
    const rules = { client: pick('client'), project: pick('project') };
    if (rules.client || rules.project) groups.set(name, rules);
  }
  const quota = override?.monthlyQuota === undefined ? plan.monthlyQuota : (override.monthlyQuota ?? undefined);
  return { groups, monthlyQuota: quota };
}
