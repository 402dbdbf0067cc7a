import { z } from 'zod';
import { createProjectInput } from '../input/operations.ts';
import { setLimitsInput, usageQuery } from '../input/limits.ts';
import { operation } from './operation.ts';
import {
  apiKeyStateView,
  apiKeyView,
  deletedProjectView,
  limitsView,
  projectDetailView,
  projectView,
  toApiKeyStateView,
  toApiKeyView,
  toLimitsView,
  toProjectDetailView,
  toProjectView,
  toUsageView,
  usageView,
} from './views.ts';

/** Projects, their rate limits and usage, and their API keys. */
export const projectOperations = {
  /** In a new account of the plan given, named after the project. */
  createProject: operation({
    method: 'POST',
    path: '/projects',
    access: 'operator',
    summary: 'Create a project in a new account of the plan given (named after the project).',
    input: createProjectInput,
    output: projectView,
    status: 201,
    run: async (service, actor, { input }) => toProjectView(await service.createProject(actor, input)),
  }),
  listProjects: operation({
    method: 'GET',
    path: '/projects',
    access: 'read',
    summary: 'List the projects, with their plans.',
    output: z.array(projectDetailView),
    run: async (service, actor) => (await service.listProjects(actor)).map(toProjectDetailView),
  }),
  getProject: operation({
    method: 'GET',
    path: '/projects/:id',
    access: 'read',
    summary: 'Show one project.',
    output: projectDetailView,
    run: async (service, actor, { id }) => toProjectDetailView(await service.getProject(actor, id)),
  }),
  deleteProject: operation({
    method: 'DELETE',
    path: '/projects/:id',
    access: 'owner',
    summary: 'Delete a project. Its tokens are then answered 1025 (deleting does not revoke them).',
    output: deletedProjectView,
    run: async (service, actor, { id }) => ({
      id: (await service.deleteProject(actor, id)).id,
      deleted: true as const,
    }),
  }),
  /** Every gateway applies a change of the override within its policy refresh. */
  getProjectLimits: operation({
    method: 'GET',
    path: '/projects/:id/limits',
    access: 'read',
    summary: "Show a project's rate-limit override.",
    output: limitsView,
    run: async (service, actor, { id }) => toLimitsView(await service.getProjectLimits(actor, id)),
  }),
  setProjectLimits: operation({
    method: 'POST',
    path: '/projects/:id/limits',
    access: 'operator',
    summary: "Set a project's rate-limit override; every gateway applies it within its policy refresh (500 ms).",
    input: setLimitsInput,
    output: limitsView,
    run: async (service, actor, { id, input }) => toLimitsView(await service.setProjectLimits(actor, id, input)),
  }),
  clearProjectLimits: operation({
    method: 'DELETE',
    path: '/projects/:id/limits',
    access: 'operator',
    summary: "Clear a project's rate-limit override: the plan applies again.",
    output: limitsView,
    run: async (service, actor, { id }) => toLimitsView(await service.clearProjectLimits(actor, id)),
  }),
  projectUsage: operation({
    method: 'GET',
    path: '/projects/:id/usage',
    access: 'read',
    summary: "Show a project's calls this month (or another), per UTC day, as the gateways counted them.",
    input: usageQuery,
    output: usageView,
    run: async (service, actor, { id, input }) => toUsageView(await service.projectUsage(actor, id, input.month)),
  }),
  createApiKey: operation({
    method: 'POST',
    path: '/projects/:id/apikeys',
    access: 'write',
    summary: 'Create an API key and secret for key/secret calls. The secret is shown once.',
    output: apiKeyView,
    status: 201,
    run: async (service, actor, { id }) => toApiKeyView(await service.createApiKey(actor, id)),
  }),
  disableApiKey: operation({
    method: 'POST',
    path: '/apikeys/:id/disable',
    access: 'write',
    summary: 'Disable an API key: its calls are refused (1001, as an unknown key) until it is enabled again.',
    output: apiKeyStateView,
    run: async (service, actor, { id }) => toApiKeyStateView(await service.setApiKeyEnabled(actor, id, false)),
  }),
  enableApiKey: operation({
    method: 'POST',
    path: '/apikeys/:id/enable',
    access: 'write',
    summary: 'Enable an API key again.',
    output: apiKeyStateView,
    run: async (service, actor, { id }) => toApiKeyStateView(await service.setApiKeyEnabled(actor, id, true)),
  }),
};
