/** Calls a gateway counted for a project on one UTC day, and the monthly quota it enforced. */
export interface UsageReport {
  readonly projectId: string;
  readonly day: string;
  readonly calls: number;
  readonly quota: number | null;
}

export interface DailyUsage {
  readonly day: string;
  readonly calls: number;
  readonly quota: number | null;
}

/** The calls the gateways counted per project and day. */
export interface UsageStore {
  /** Adds calls counted by a gateway; counts for a project that no longer exists are dropped. */
  addUsage(reports: readonly UsageReport[]): Promise<void>;
  /** A project's daily counts from `fromDay` to `toDay` inclusive (`YYYY-MM-DD`), oldest first. */
  usageBetween(projectId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;
}
