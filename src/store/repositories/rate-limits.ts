import type { LimitsOverride, Plan } from '#common';

/** A project's plan and its override of the plan's rate limits (null: none). */
export interface ProjectPolicy {
  readonly projectId: string;
  readonly plan: Plan;
  readonly override: LimitsOverride | null;
}

/** The gateways' rate-limit policy: each project's plan and override, and which project a key counts against. */
export interface RateLimitStore {
  /** Sets a project's rate-limit override, or removes it (null); false when the project does not exist. */
  setProjectLimits(projectId: string, override: LimitsOverride | null): Promise<boolean>;
  /** Every project's plan and override (the gateways' policy feed). */
  projectPolicies(): Promise<ProjectPolicy[]>;
  /** Every API key with its project (the policy feed: key/secret calls count against their project). */
  apiKeyProjects(): Promise<Array<{ key: string; projectId: string }>>;
}
