import type { Plan } from '#common';

export interface Project {
  id: string;
  name: string;
  /** The account's plan (read with the project; it has no plan of its own). */
  plan: Plan;
  accountId: string;
  /** Whether the account is enabled (read with the project). */
  accountEnabled: boolean;
  createdAt: number;
}

/** In an existing account, or in a new account of the plan given (named after the project). */
export type NewProject = { name: string; accountId: string } | { name: string; plan: Plan };

/** The projects of the accounts. A change is announced to every replica (onChange, kind `project`). */
export interface ProjectStore {
  /** Throws StoreError `account_not_found` for an unknown account. */
  createProject(input: NewProject): Promise<Project>;
  getProject(id: string): Promise<Project | null>;
  /** Every project, or (given an id) the account's. */
  listProjects(accountId?: string): Promise<Project[]>;
  /** Deletes the project with its clients and API keys; returns false if it did not exist. */
  deleteProject(id: string): Promise<boolean>;
}
