import { monthSchema, type ProjectLimits, type ProjectUsage, parseInput, setLimitsInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, id, ok } from './route.ts';

function limitsView(limits: ProjectLimits) {
  return { project_id: limits.projectId, plan: limits.plan, override: limits.override };
}

function usageView(usage: ProjectUsage) {
  return {
    project_id: usage.projectId,
    month: usage.month,
    calls: usage.calls,
    quota: usage.quota,
    days: usage.days.map((d) => ({ day: d.day, calls: d.calls })),
  };
}

/** A project's rate-limit override (every gateway applies a change within its policy refresh) and its usage. */
export const rateLimitRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/projects/:id/limits',
    async handle(service, actor, _req, params) {
      return ok(limitsView(await service.getProjectLimits(actor, id(params))));
    },
  },
  {
    method: 'POST',
    path: '/projects/:id/limits',
    async handle(service, actor, req, params) {
      const input = parseInput(setLimitsInput, await readJsonObject(req));
      return ok(limitsView(await service.setProjectLimits(actor, id(params), input)));
    },
  },
  {
    method: 'DELETE',
    path: '/projects/:id/limits',
    async handle(service, actor, _req, params) {
      return ok(limitsView(await service.clearProjectLimits(actor, id(params))));
    },
  },
  {
    method: 'GET',
    path: '/projects/:id/usage',
    async handle(service, actor, req, params) {
      const month = new URL(req.url ?? '/', 'http://admin.invalid').searchParams.get('month');
      const parsed = month === null ? undefined : parseInput(monthSchema, month);
      return ok(usageView(await service.projectUsage(actor, id(params), parsed)));
    },
  },
];
