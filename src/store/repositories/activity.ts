/** An entry of an account's activity log; `at` in epoch ms, `address` null when unknown. */
export interface ActivityEntry {
  at: number;
  actor: string;
  action: string;
  target: string;
  address: string | null;
}

export interface NewActivity {
  accountId: string;
  actor: string;
  action: string;
  target: string;
  address: string | null;
}

/** Each account's activity log (who changed what, from where). */
export interface ActivityStore {
  /** Appends to an account's activity log (stamped now); refused for an unknown account. */
  addActivity(entry: NewActivity): Promise<void>;
  /** The account's latest `limit` activity entries, newest first. */
  listActivity(accountId: string, limit: number): Promise<ActivityEntry[]>;
}
