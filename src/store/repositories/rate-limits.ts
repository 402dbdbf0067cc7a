import type { LimitsOverride, Plan } from '#common';

/** A project's plan and its override of the plan's rate limits (null: none). */
export interface ProjectPolicy {
  readonly projectId: string;
  readonly plan: Plan;
  readonly override: LimitsOverride | null;
}

/** An API key that can be used, and the project its calls count against. */
export interface KeyProject {
  readonly key: string;
  readonly projectId: string;
}

/** Where a gateway is in the policy change log: the log's identity and the last seq it applied. */
export interface PolicyCursor {
  readonly epoch: string;
  readonly seq: number;
}

/**
 * The policy changes after a cursor. `full`: the cursor was missing, of another store or before
 * the pruned part of the log, so this is every project and usable key (replace what you hold);
 * otherwise it is what changed (apply it). `more`: the page was cut, ask again at once.
 */
export interface PolicyChanges {
  readonly cursor: PolicyCursor;
  readonly full: boolean;
  readonly more: boolean;
  readonly projects: ProjectPolicy[];
  readonly apiKeys: KeyProject[];
  readonly removedProjects: string[];
  readonly removedKeys: string[];
}

/** The gateways' rate-limit policy: each project's plan and override, and which project a key counts against. */
export interface RateLimitStore {
  /** Sets a project's rate-limit override, or removes it (null); false when the project does not exist. */
  setProjectLimits(projectId: string, override: LimitsOverride | null): Promise<boolean>;
  /** Every project's plan and override (the gateways' policy feed). */
  projectPolicies(): Promise<ProjectPolicy[]>;
  /** Every API key with its project (the policy feed: key/secret calls count against their project). */
  apiKeyProjects(): Promise<KeyProject[]>;
  /** The policy changes after `cursor` (null: none yet), at most `limit` (default 1000) change entries. */
  policyChangesSince(cursor: PolicyCursor | null, limit?: number): Promise<PolicyChanges>;
  /** Forgets the log's entries older than `olderThanMs` (epoch ms); a cursor before them reads in full. */
  prunePolicyChanges(olderThanMs: number): Promise<number>;
}
