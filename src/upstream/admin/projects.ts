import { createProject, createProjectInput, deleteProject, getProject, listProjects, parseInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, ok, operatorActor } from './route.ts';
import { projectDetailView, projectView } from './views.ts';

export const projectRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects',
    async handle(ctx, req) {
      const input = parseInput(createProjectInput, await readJsonObject(req));
      return ok(projectView(await createProject(ctx, operatorActor(req), input)), 201);
    },
  },
  {
    method: 'GET',
    path: '/projects',
    async handle(ctx, req) {
      return ok((await listProjects(ctx, operatorActor(req))).map(projectDetailView));
    },
  },
  {
    method: 'GET',
    path: '/projects/:id',
    async handle(ctx, req, params) {
      return ok(projectDetailView(await getProject(ctx, operatorActor(req), params['id'] ?? '')));
    },
  },
  {
    method: 'DELETE',
    path: '/projects/:id',
    async handle(ctx, req, params) {
      const { id } = await deleteProject(ctx, operatorActor(req), params['id'] ?? '');
      return ok({ id, deleted: true });
    },
  },
];
