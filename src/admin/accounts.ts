import { type Account, isWellFormedId, type Project } from '#store';
import { type Need, requireOperator, requireRole, sees } from './access.ts';
import { recordActivity } from './activity.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { AdminError, notFound } from './errors.ts';
import type { AccountPlanInput, AccountProjectInput, CreateAccountInput } from './input/account.ts';

export async function createAccount(ctx: AdminContext, actor: Actor, input: CreateAccountInput): Promise<Account> {
  requireOperator(actor);
  const account = await ctx.store.createAccount({ name: input.name, plan: input.plan });
  ctx.log.info({ actor, accountId: account.id, plan: account.plan }, 'admin: account created');
  return account;
}

/** Every account for the operator; a person's own accounts for a person. */
export async function listAccounts(ctx: AdminContext, actor: Actor): Promise<Account[]> {
  const accounts = await ctx.store.listAccounts();
  return accounts.filter((account) => sees(actor, account.id));
}

/** Loads an account the actor sees (another's is a 404 like none), then checks the role for `need`. */
export async function getAccount(ctx: AdminContext, actor: Actor, id: string, need: Need = 'read'): Promise<Account> {
  const account = isWellFormedId(id) && sees(actor, id) ? await ctx.store.getAccount(id) : null;
  if (!account) throw notFound('account', id);
  requireRole(actor, account.id, need);
  return account;
}

/** Every project of the account follows: a plan without OAuth makes their clients get no tokens. */
export async function setAccountPlan(
  ctx: AdminContext,
  actor: Actor,
  id: string,
  input: AccountPlanInput,
): Promise<Account> {
  requireOperator(actor);
  const account = isWellFormedId(id) ? await ctx.store.updateAccount(id, { plan: input.plan }) : null;
  if (!account) throw notFound('account', id);
  ctx.log.info({ actor, accountId: id, plan: account.plan }, 'admin: account plan changed');
  await recordActivity(ctx, actor, id, `plan.${account.plan}`, id);
  return account;
}

/**
 * Disabling an account works as disabling each of its clients does: the token endpoint refuses
 * them (by the account's state) and their outstanding tokens are revoked; its API keys are
 * refused. Enabling lets them get tokens again; the tokens revoked stay revoked.
 */
export async function setAccountEnabled(
  ctx: AdminContext,
  actor: Actor,
  id: string,
  enabled: boolean,
): Promise<Account> {
  requireOperator(actor);
  const account = isWellFormedId(id) ? await ctx.store.updateAccount(id, { enabled }) : null;
  if (!account) throw notFound('account', id);
  await recordActivity(ctx, actor, id, enabled ? 'account.enable' : 'account.disable', id);
  if (!enabled) await revokeAccountTokens(ctx, actor, account);
  ctx.log.info({ actor, accountId: id, enabled }, 'admin: account enabled changed');
  return account;
}

async function revokeAccountTokens(ctx: AdminContext, actor: Actor, account: Account): Promise<void> {
  const projects = await ctx.store.listProjects(account.id);
  const clients = (await Promise.all(projects.map((project) => ctx.store.listClients(project.id)))).flat();
  try {
    for (const client of clients) await ctx.issuer.revokeClientTokens(client.clientId);
  } catch (error) {
    ctx.log.error({ err: error, actor, accountId: account.id }, 'admin: account disabled, revoking its tokens failed');
    throw new AdminError(
      'incomplete',
      'the account is disabled, but revoking its outstanding tokens failed: disable it again to retry',
    );
  }
}

export async function createAccountProject(
  ctx: AdminContext,
  actor: Actor,
  accountId: string,
  input: AccountProjectInput,
): Promise<Project> {
  const account = await getAccount(ctx, actor, accountId, 'write');
  const project = await ctx.store.createProject({ name: input.name, accountId: account.id });
  ctx.log.info({ actor, accountId: account.id, projectId: project.id }, 'admin: project created');
  await recordActivity(ctx, actor, account.id, 'project.create', project.id);
  return project;
}
