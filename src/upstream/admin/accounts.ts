import { accountPlanInput, accountProjectInput, createAccountInput, inviteInput, parseInput } from '#admin';
import type { Account } from '#store';
import { readJsonObject } from './body.ts';
import { type AdminRoute, id, ok } from './route.ts';
import { accountView, activityView, projectView } from './views.ts';

export const accountRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/accounts',
    async handle(service, actor, req) {
      const input = parseInput(createAccountInput, await readJsonObject(req));
      return ok(accountView(await service.createAccount(actor, input)), 201);
    },
  },
  {
    method: 'GET',
    path: '/accounts',
    async handle(service, actor) {
      return ok((await service.listAccounts(actor)).map(accountView));
    },
  },
  {
    method: 'GET',
    path: '/accounts/:id',
    async handle(service, actor, _req, params) {
      return ok(accountView(await service.getAccount(actor, id(params))));
    },
  },
  {
    method: 'GET',
    path: '/accounts/:id/activity',
    /** The latest entries (at most 500), newest first. */
    async handle(service, actor, _req, params) {
      return ok((await service.accountActivity(actor, id(params))).map(activityView));
    },
  },
  {
    method: 'POST',
    path: '/accounts/:id/plan',
    async handle(service, actor, req, params) {
      // The account first: an unknown one is a 404 whatever the body holds.
      const account = await service.getAccount(actor, id(params));
      const input = parseInput(accountPlanInput, await readJsonObject(req));
      return ok(accountView(await service.setAccountPlan(actor, account.id, input)));
    },
  },
  {
    method: 'POST',
    path: '/accounts/:id/disable',
    async handle(service, actor, _req, params) {
      return enabledView(await service.setAccountEnabled(actor, id(params), false));
    },
  },
  {
    method: 'POST',
    path: '/accounts/:id/enable',
    async handle(service, actor, _req, params) {
      return enabledView(await service.setAccountEnabled(actor, id(params), true));
    },
  },
  {
    method: 'POST',
    path: '/accounts/:id/projects',
    async handle(service, actor, req, params) {
      const account = await service.getAccount(actor, id(params));
      const input = parseInput(accountProjectInput, await readJsonObject(req));
      return ok(projectView(await service.createAccountProject(actor, account.id, input)), 201);
    },
  },
  {
    method: 'POST',
    path: '/accounts/:id/invitations',
    /** The link is in this answer only: the store keeps a digest of its secret. */
    async handle(service, actor, req, params) {
      const account = await service.getAccount(actor, id(params));
      const input = parseInput(inviteInput, await readJsonObject(req));
      const created = await service.invitePerson(actor, account.id, input);
      return ok(
        {
          email: created.email,
          role: created.role,
          account_id: created.accountId,
          invite_url: created.inviteUrl,
          expires_at: new Date(created.expiresAt).toISOString(),
        },
        201,
      );
    },
  },
];

function enabledView(account: Account) {
  return ok({ id: account.id, enabled: account.enabled });
}
