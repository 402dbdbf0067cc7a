import { isWellFormedId } from '#store';
import { notFound } from './admin-error.ts';
import { nameField, planField, readJsonObject } from './input.ts';
import { type AdminRoute, ok, requireProject } from './route.ts';
import { projectDetailView, projectView } from './views.ts';

export const projectRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects',
    async handle(ctx, req) {
      const body = await readJsonObject(req);
      const project = await ctx.store.createProject({ name: nameField(body), plan: planField(body) });
      ctx.log.info({ projectId: project.id, plan: project.plan }, 'admin: project created');
      return ok(projectView(project), 201);
    },
  },
  {
    method: 'GET',
    path: '/projects',
    async handle(ctx) {
      return ok((await ctx.store.listProjects()).map(projectDetailView));
    },
  },
  {
    method: 'GET',
    path: '/projects/:id',
    async handle(ctx, _req, params) {
      return ok(projectDetailView(await requireProject(ctx, params['id'])));
    },
  },
  {
    method: 'DELETE',
    path: '/projects/:id',
    async handle(ctx, _req, params) {
      const id = params['id'] ?? '';
      // Deleting does not revoke: the project's tokens are then answered with 1025.
      if (!isWellFormedId(id) || !(await ctx.store.deleteProject(id))) throw notFound('project', id);
      ctx.log.info({ projectId: id }, 'admin: project deleted');
      return ok({ id, deleted: true });
    },
  },
];
