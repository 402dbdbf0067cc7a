import type { Plan } from '#common';
import { createAccount } from './accounts.ts';
import { StoreError } from './errors.ts';
import { newProjectId } from './ids.ts';
import { type Queryable, type SqlRunner, toNumber } from './sql-runner.ts';
import type { NewProject, Project, ProjectStore } from './repositories/projects.ts';
import type { RepositoryContext } from './repository-context.ts';

interface ProjectRow {
  id: string;
  name: string;
  plan: Plan;
  account_id: string;
  account_enabled: boolean;
  created_at: unknown;
}

/** A project with what it takes from its account: the plan and whether the account is enabled. */
const SELECT = `SELECT p.id, p.name, a.plan, p.account_id, a.enabled AS account_enabled, p.created_at
  FROM projects p JOIN accounts a ON a.id = p.account_id`;

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    accountId: row.account_id,
    accountEnabled: row.account_enabled,
    createdAt: toNumber(row.created_at),
  };
}

/**
 * In the account given, or (with a plan instead) in a new account of that plan named after the
 * project, in one transaction. Throws StoreError `account_not_found`.
 */
export async function createProject(db: SqlRunner, input: NewProject, nowMs: number): Promise<Project> {
  return db.transaction(async (tx) => {
    const accountId =
      'accountId' in input ? await lockAccount(tx, input.accountId) : (await createAccount(tx, input, nowMs)).id;
    const id = newProjectId();
    await tx.query('INSERT INTO projects (id, name, account_id, created_at) VALUES ($1, $2, $3, $4)', [
      id,
      input.name,
      accountId,
      nowMs,
    ]);
    const rows = await tx.query<ProjectRow>(`${SELECT} WHERE p.id = $1`, [id]);
    return toProject(rows[0]!);
  });
}

async function lockAccount(tx: Queryable, accountId: string): Promise<string> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM accounts WHERE id = $1 FOR SHARE', [accountId]);
  if (!rows[0]) throw new StoreError('account_not_found', 'account not found');
  return rows[0].id;
}

export async function getProject(db: SqlRunner, id: string): Promise<Project | null> {
  const rows = await db.query<ProjectRow>(`${SELECT} WHERE p.id = $1`, [id]);
  return rows[0] ? toProject(rows[0]) : null;
}

/** Every project, or an account's. */
export async function listProjects(db: SqlRunner, accountId?: string): Promise<Project[]> {
  const rows =
    accountId === undefined
      ? await db.query<ProjectRow>(`${SELECT} ORDER BY p.created_at, p.id`)
      : await db.query<ProjectRow>(`${SELECT} WHERE p.account_id = $1 ORDER BY p.created_at, p.id`, [accountId]);
  return rows.map(toProject);
}

/** Clients and API keys go with it (ON DELETE CASCADE); revocations are kept on purpose. */
export async function deleteProject(db: SqlRunner, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('DELETE FROM projects WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}

export function projectStore({ db, clock, changing }: RepositoryContext): ProjectStore {
  return {
    createProject: (input) => changing(createProject(db, input, clock.now()), 'project', (p) => p.id),
    getProject: (id) => getProject(db, id),
    listProjects: (accountId) => listProjects(db, accountId),
    deleteProject: (id) => changing(deleteProject(db, id), 'project', (deleted) => (deleted ? id : null)),
  };
}
