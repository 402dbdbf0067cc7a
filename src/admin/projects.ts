import { isWellFormedId, type Project } from '#store';
import { requireOperator, requireRole, sees, type Need } from './access.ts';
import { recordActivity } from './activity.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { notFound } from './errors.ts';
import type { CreateProjectInput } from './input/operations.ts';

/** In a new account of the plan given: the operator's `project create --plan`. */
export async function createProject(ctx: AdminContext, actor: Actor, input: CreateProjectInput): Promise<Project> {
  requireOperator(actor);
  const project = await ctx.store.createProject({ name: input.name, plan: input.plan });
  ctx.log.info({ actor, projectId: project.id, plan: project.plan }, 'admin: project created');
  await recordActivity(ctx, actor, project.accountId, 'project.create', project.id);
  return project;
}

/** Every project for the operator; a person's accounts' projects for a person. */
export async function listProjects(ctx: AdminContext, actor: Actor): Promise<Project[]> {
  if (actor.kind !== 'person') return ctx.store.listProjects();
  const lists = await Promise.all(Object.keys(actor.roles).map((accountId) => ctx.store.listProjects(accountId)));
  return lists.flat();
}

/**
 * The project, or null when there is none with this id or the actor may not see it: another
 * account's project is answered exactly as one that does not exist.
 */
export async function findProject(ctx: AdminContext, actor: Actor, id: string): Promise<Project | null> {
  const project = isWellFormedId(id) ? await ctx.store.getProject(id) : null;
  return project && sees(actor, project.accountId) ? project : null;
}

/** Loads a project the actor sees, or refuses with 404 naming the id; then checks the role for `need`. */
export async function getProject(ctx: AdminContext, actor: Actor, id: string, need: Need = 'read'): Promise<Project> {
  const project = await findProject(ctx, actor, id);
  if (!project) throw notFound('project', id);
  requireRole(actor, project.accountId, need);
  return project;
}

/** Deleting does not revoke: the project's tokens are then answered with 1025. */
export async function deleteProject(ctx: AdminContext, actor: Actor, id: string): Promise<{ id: string }> {
  const project = await getProject(ctx, actor, id, 'owner');
  if (!(await ctx.store.deleteProject(project.id))) throw notFound('project', id);
  ctx.log.info({ actor, projectId: id }, 'admin: project deleted');
  await recordActivity(ctx, actor, project.accountId, 'project.delete', project.id);
  return { id };
}
