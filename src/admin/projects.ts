import { isWellFormedId, type Project } from '#store';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { notFound } from './errors.ts';
import type { CreateProjectInput } from './input/operations.ts';

export async function createProject(ctx: AdminContext, actor: Actor, input: CreateProjectInput): Promise<Project> {
  const project = await ctx.store.createProject({ name: input.name, plan: input.plan });
  ctx.log.info({ actor, projectId: project.id, plan: project.plan }, 'admin: project created');
  return project;
}

export function listProjects(ctx: AdminContext, _actor: Actor): Promise<Project[]> {
  return ctx.store.listProjects();
}

/** The project, or null when there is none with this id (an id no id can be included). */
export async function findProject(ctx: AdminContext, _actor: Actor, id: string): Promise<Project | null> {
  return isWellFormedId(id) ? await ctx.store.getProject(id) : null;
}

/** Loads a project or refuses with 404 naming the id. */
export async function getProject(ctx: AdminContext, actor: Actor, id: string): Promise<Project> {
  const project = await findProject(ctx, actor, id);
  if (!project) throw notFound('project', id);
  return project;
}

/** Deleting does not revoke: the project's tokens are then answered with 1025. */
export async function deleteProject(ctx: AdminContext, actor: Actor, id: string): Promise<{ id: string }> {
  if (!isWellFormedId(id) || !(await ctx.store.deleteProject(id))) throw notFound('project', id);
  ctx.log.info({ actor, projectId: id }, 'admin: project deleted');
  return { id };
}
