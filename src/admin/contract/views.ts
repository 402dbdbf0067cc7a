import { type LimitsOverride, PLANS } from '#common';
import type { SigningKeyInfo } from '#issuer';
import type { Account, ActivityEntry, ApiKey, OAuthClient, Project } from '#store';
import { z } from 'zod';
import type { CreatedApiKey } from '../api-keys.ts';
import { CLIENT_AUTH_METHODS, clientAuthMethod } from '../input/jwks.ts';
import { ROLES } from '../input/people.ts';
import type { CreatedInvitation } from '../people/members.ts';
import type { ProjectLimits, ProjectUsage } from '../rate-limits.ts';

/*
 * The JSON the admin API answers, and so what its typed client returns and `tokengate admin
 * --json` prints: snake_case, as in the operator contract. Each view is a schema (the client
 * checks an answer with it, keeping only these members, in this order) and a function that
 * builds it from the service's result, typed against the schema so the two cannot drift.
 */

const iso = (ms: number): string => new Date(ms).toISOString();
const plan = z.enum(PLANS);
const authMethod = z.enum(CLIENT_AUTH_METHODS);
const keySet = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export const accountView = z.object({ id: z.string(), name: z.string(), plan, enabled: z.boolean() });
export const toAccountView = (a: Account): View<typeof accountView> => ({
  id: a.id,
  name: a.name,
  plan: a.plan,
  enabled: a.enabled,
});

export const accountStateView = accountView.pick({ id: true, enabled: true });
export const toAccountStateView = (a: Account): View<typeof accountStateView> => ({ id: a.id, enabled: a.enabled });

/** An activity entry: `at` in ISO 8601 (UTC). */
export const activityView = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  address: z.string().nullable(),
});
export const toActivityView = (e: ActivityEntry): View<typeof activityView> => ({
  at: iso(e.at),
  actor: e.actor,
  action: e.action,
  target: e.target,
  address: e.address,
});

/** The link is in this answer only: the store keeps a digest of its secret. */
export const invitationView = z.object({
  email: z.string(),
  role: z.enum(ROLES),
  account_id: z.string(),
  invite_url: z.string(),
  expires_at: z.string(),
});
export const toInvitationView = (i: CreatedInvitation): View<typeof invitationView> => ({
  email: i.email,
  role: i.role,
  account_id: i.accountId,
  invite_url: i.inviteUrl,
  expires_at: iso(i.expiresAt),
});

/** `plan` is the account's. */
export const projectView = z.object({ id: z.string(), name: z.string(), plan, account_id: z.string() });
export const toProjectView = (p: Project): View<typeof projectView> => ({
  id: p.id,
  name: p.name,
  plan: p.plan,
  account_id: p.accountId,
});

export const projectDetailView = projectView.extend({ created_at: z.string() });
export const toProjectDetailView = (p: Project): View<typeof projectDetailView> => ({
  ...toProjectView(p),
  created_at: iso(p.createdAt),
});

export const deletedProjectView = z.object({ id: z.string(), deleted: z.literal(true) });

export const limitsView = z.object({
  project_id: z.string(),
  plan,
  override: z.custom<LimitsOverride>().nullable(),
});
export const toLimitsView = (l: ProjectLimits): View<typeof limitsView> => ({
  project_id: l.projectId,
  plan: l.plan,
  override: l.override,
});

export const usageView = z.object({
  project_id: z.string(),
  month: z.string(),
  calls: z.number(),
  quota: z.number().nullable(),
  days: z.array(z.object({ day: z.string(), calls: z.number() })),
});
export const toUsageView = (u: ProjectUsage): View<typeof usageView> => ({
  project_id: u.projectId,
  month: u.month,
  calls: u.calls,
  quota: u.quota,
  days: u.days.map((d) => ({ day: d.day, calls: d.calls })),
});

/** Never a secret; a private_key_jwt client's public keys are shown as `jwks`. */
export const clientView = z.object({
  client_id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  enabled: z.boolean(),
  auth: authMethod,
  require_dpop: z.boolean(),
  introspect: z.boolean(),
  jwks: keySet.optional(),
});
export const toClientView = (c: OAuthClient): View<typeof clientView> => ({
  client_id: c.clientId,
  name: c.name,
  scopes: [...c.scopes],
  enabled: c.enabled,
  auth: clientAuthMethod(c),
  require_dpop: c.requireDpop,
  introspect: c.introspect,
  ...(c.jwks ? { jwks: c.jwks } : {}),
});

/** A new client: its secret is shown here once (only its hash is stored); a private_key_jwt client has none. */
export const createdClientView = z
  .object({ client_id: z.string(), client_secret: z.string().optional() })
  .extend(clientView.omit({ client_id: true }).shape);

export const toCreatedClientView = (c: OAuthClient, secret: string | null): View<typeof createdClientView> => {
  const { client_id, ...rest } = toClientView(c);
  return { client_id, ...(secret === null ? {} : { client_secret: secret }), ...rest };
};

export const clientStateView = clientView.pick({ client_id: true, enabled: true });
export const toClientStateView = (c: OAuthClient): View<typeof clientStateView> => ({
  client_id: c.clientId,
  enabled: c.enabled,
});

export const clientDpopView = clientView.pick({ client_id: true, require_dpop: true });
export const toClientDpopView = (c: OAuthClient): View<typeof clientDpopView> => ({
  client_id: c.clientId,
  require_dpop: c.requireDpop,
});

export const clientIntrospectView = clientView.pick({ client_id: true, introspect: true });
export const toClientIntrospectView = (c: OAuthClient): View<typeof clientIntrospectView> => ({
  client_id: c.clientId,
  introspect: c.introspect,
});

export const keyView = z.object({
  kid: z.string(),
  status: z.enum(['next', 'active', 'retired']),
  alg: z.string(),
  created_at: z.string(),
  activated_at: z.string().nullable(),
  retired_at: z.string().nullable(),
  remove_after: z.string().nullable(),
  promotable_at: z.string().nullable(),
});
export const toKeyView = (k: SigningKeyInfo): View<typeof keyView> => ({
  kid: k.kid,
  status: k.status,
  alg: k.alg,
  created_at: k.createdAt,
  activated_at: k.activatedAt,
  retired_at: k.retiredAt,
  remove_after: k.removeAfter,
  promotable_at: k.promotableAt,
});

export const rotatedView = z.object({ kid: z.string() });
export const revokedView = z.object({ revoked: z.literal(true) });
export const reloadedView = z.object({ reloaded: z.literal(true) });

/** The secret is shown here once; only its hash is stored. */
export const apiKeyView = z.object({ key: z.string(), secret: z.string() });
export const toApiKeyView = (k: CreatedApiKey): View<typeof apiKeyView> => ({ key: k.apiKey.key, secret: k.secret });

/** Never the secret's hash: the key and its state only. */
export const apiKeyStateView = z.object({ key: z.string(), enabled: z.boolean() });
export const toApiKeyStateView = (k: ApiKey): View<typeof apiKeyStateView> => ({ key: k.key, enabled: k.enabled });

/** What a view's builder returns and the typed client hands back (no view transforms, so both sides agree). */
export type View<S extends z.ZodType> = z.output<S>;
