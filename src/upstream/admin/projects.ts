import { createProjectInput, parseInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, id, ok } from './route.ts';
import { projectDetailView, projectView } from './views.ts';

export const projectRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects',
    async handle(service, actor, req) {
      const input = parseInput(createProjectInput, await readJsonObject(req));
      return ok(projectView(await service.createProject(actor, input)), 201);
    },
  },
  {
    method: 'GET',
    path: '/projects',
    async handle(service, actor) {
      return ok((await service.listProjects(actor)).map(projectDetailView));
    },
  },
  {
    method: 'GET',
    path: '/projects/:id',
    async handle(service, actor, _req, params) {
      return ok(projectDetailView(await service.getProject(actor, id(params))));
    },
  },
  {
    method: 'DELETE',
    path: '/projects/:id',
    async handle(service, actor, _req, params) {
      const deleted = await service.deleteProject(actor, id(params));
      return ok({ id: deleted.id, deleted: true });
    },
  },
];
