import type { Plan } from '#common';
import { newProjectId } from './ids.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';
import type { Project } from './types.ts';

interface ProjectRow {
  id: string;
  name: string;
  plan: Plan;
  created_at: unknown;
}

const COLUMNS = 'id, name, plan, created_at';

function toProject(row: ProjectRow): Project {
  return { id: row.id, name: row.name, plan: row.plan, createdAt: toNumber(row.created_at) };
}

export async function createProject(
  db: SqlRunner,
  input: { name: string; plan: Plan },
  nowMs: number,
): Promise<Project> {
  const rows = await db.query<ProjectRow>(
    `INSERT INTO projects (id, name, plan, created_at) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [newProjectId(), input.name, input.plan, nowMs],
  );
  return toProject(rows[0]!);
}

export async function getProject(db: SqlRunner, id: string): Promise<Project | null> {
  const rows = await db.query<ProjectRow>(`SELECT ${COLUMNS} FROM projects WHERE id = $1`, [id]);
  return rows[0] ? toProject(rows[0]) : null;
}

export async function listProjects(db: SqlRunner): Promise<Project[]> {
  const rows = await db.query<ProjectRow>(`SELECT ${COLUMNS} FROM projects ORDER BY created_at, id`);
  return rows.map(toProject);
}

/** Clients and API keys go with it (ON DELETE CASCADE); revocations are kept on purpose. */
export async function deleteProject(db: SqlRunner, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('DELETE FROM projects WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}
