import type { LimitsOverride, Plan } from '#common';
import { type CompiledPlans, compileRules, type ProjectRules } from './plans.ts';

export interface ProjectPolicy {
  readonly plan: Plan;
  readonly override: LimitsOverride | null;
}

/**
 * Each project's plan and override as the upstream's policy feed last gave them, and the rules
 * they make under the current configuration (compiled on first use, dropped when either changes).
 */
export interface PolicyBook {
  rulesFor(plans: CompiledPlans, project: string | undefined): ProjectRules;
  /** Holds `policies` (the book keeps the map) instead of what it had: a full read. */
  replace(policies: Map<string, ProjectPolicy>): void;
  /** Sets the policies of `changed` projects and forgets the `removed` ones (an incremental poll). */
  apply(changed: ReadonlyMap<string, ProjectPolicy>, removed: readonly string[]): void;
  size(): number;
}

export function createPolicyBook(): PolicyBook {
  let policies = new Map<string, ProjectPolicy>();
  let compiledFor: CompiledPlans | undefined;
  const rules = new Map<string, ProjectRules>();
  return {
    rulesFor(plans, project) {
      if (project === undefined) return plans.defaultRules;
      if (compiledFor !== plans) {
        rules.clear();
        compiledFor = plans;
      }
      const cached = rules.get(project);
      if (cached !== undefined) return cached;
      const policy = policies.get(project);
      if (policy === undefined) return plans.defaultRules;
      const made =
        policy.override === null
          ? plans.byPlan[policy.plan]
          : compileRules(plans.config.plans[policy.plan], policy.override);
      rules.set(project, made);
      return made;
    },
    replace(next) {
      policies = next;
      rules.clear();
    },
    apply(changed, removed) {
      for (const [project, policy] of changed) {
        policies.set(project, policy);
        rules.delete(project);
      }
      for (const project of removed) {
        policies.delete(project);
        rules.delete(project);
      }
    },
    size: () => policies.size,
  };
}
