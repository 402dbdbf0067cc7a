import type { Plan } from '#common';

/** A customer: owns projects, and its plan is theirs. */
export interface Account {
  id: string;
  name: string;
  plan: Plan;
  /** A disabled account's clients get no tokens (their outstanding ones are revoked) and its API keys are refused. */
  enabled: boolean;
  createdAt: number;
}

/** The accounts (customers). A change is announced to every replica (onChange, kind `account`). */
export interface AccountStore {
  createAccount(input: { name: string; plan: Plan }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Changes the plan and/or the enabled flag; null when there is no such account. */
  updateAccount(id: string, change: { plan?: Plan; enabled?: boolean }): Promise<Account | null>;
}
