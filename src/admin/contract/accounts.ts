import { z } from 'zod';
import { accountPlanInput, accountProjectInput, createAccountInput } from '../input/account.ts';
import { inviteInput } from '../input/people.ts';
import { operation } from './operation.ts';
import {
  accountStateView,
  accountView,
  activityView,
  invitationView,
  projectView,
  toAccountStateView,
  toAccountView,
  toActivityView,
  toInvitationView,
  toProjectView,
} from './views.ts';

/** Accounts, and what is created inside one: a project, an invitation. */
export const accountOperations = {
  createAccount: operation({
    method: 'POST',
    path: '/accounts',
    access: 'operator',
    summary: 'Create an account (a customer: it owns projects, and its plan is theirs).',
    input: createAccountInput,
    output: accountView,
    status: 201,
    run: async (service, actor, { input }) => toAccountView(await service.createAccount(actor, input)),
  }),
  listAccounts: operation({
    method: 'GET',
    path: '/accounts',
    access: 'read',
    summary: 'List the accounts, with their plans and states.',
    output: z.array(accountView),
    run: async (service, actor) => (await service.listAccounts(actor)).map(toAccountView),
  }),
  getAccount: operation({
    method: 'GET',
    path: '/accounts/:id',
    access: 'read',
    summary: 'Show one account.',
    output: accountView,
    run: async (service, actor, { id }) => toAccountView(await service.getAccount(actor, id)),
  }),
  /** The latest entries (at most 500), newest first. */
  accountActivity: operation({
    method: 'GET',
    path: '/accounts/:id/activity',
    access: 'owner',
    summary:
      'Show the account’s activity log, newest first (at most 500): when, who, what, which id, from which address.',
    output: z.array(activityView),
    run: async (service, actor, { id }) => (await service.accountActivity(actor, id)).map(toActivityView),
  }),
  setAccountPlan: operation({
    method: 'POST',
    path: '/accounts/:id/plan',
    access: 'operator',
    summary: 'Change an account’s plan; every project of the account follows it.',
    parent: 'account',
    input: accountPlanInput,
    output: accountView,
    run: async (service, actor, { id, input }) => toAccountView(await service.setAccountPlan(actor, id, input)),
  }),
  disableAccount: operation({
    method: 'POST',
    path: '/accounts/:id/disable',
    access: 'operator',
    summary:
      'Disable an account: its clients get no tokens, their outstanding ones are revoked, its API keys are refused.',
    output: accountStateView,
    run: async (service, actor, { id }) => toAccountStateView(await service.setAccountEnabled(actor, id, false)),
  }),
  enableAccount: operation({
    method: 'POST',
    path: '/accounts/:id/enable',
    access: 'operator',
    summary: 'Enable an account again (tokens revoked by the disable stay revoked).',
    output: accountStateView,
    run: async (service, actor, { id }) => toAccountStateView(await service.setAccountEnabled(actor, id, true)),
  }),
  createAccountProject: operation({
    method: 'POST',
    path: '/accounts/:id/projects',
    access: 'write',
    summary: 'Create a project in an account (it takes the account’s plan).',
    parent: 'account',
    input: accountProjectInput,
    output: projectView,
    status: 201,
    run: async (service, actor, { id, input }) => toProjectView(await service.createAccountProject(actor, id, input)),
  }),
  invitePerson: operation({
    method: 'POST',
    path: '/accounts/:id/invitations',
    access: 'owner',
    summary:
      'Create an invitation link into an account (the first owner, or anyone). Shown once, single use, valid 72 hours; pass it on.',
    parent: 'account',
    input: inviteInput,
    output: invitationView,
    status: 201,
    run: async (service, actor, { id, input }) => toInvitationView(await service.invitePerson(actor, id, input)),
  }),
};
