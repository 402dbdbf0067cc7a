import { clientAuthMethod } from '#admin';
import type { SigningKeyInfo } from '#issuer';
import type { Account, ActivityEntry, OAuthClient, Project } from '#store';

/**
 * The JSON the admin API (and so `tokengate admin --json`) shows: snake_case, as in the operator
 * contract. A client view never has a secret; `scopes` is always an array of strings.
 */
export function accountView(account: Account) {
  return { id: account.id, name: account.name, plan: account.plan, enabled: account.enabled };
}

/** An activity entry as the operator contract prints it: `at` in ISO 8601 (UTC). */
export function activityView(entry: ActivityEntry) {
  return {
    at: new Date(entry.at).toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    address: entry.address,
  };
}

/** `plan` is the account's. */
export function projectView(project: Project) {
  return { id: project.id, name: project.name, plan: project.plan, account_id: project.accountId };
}

export function projectDetailView(project: Project) {
  return { ...projectView(project), created_at: new Date(project.createdAt).toISOString() };
}

/** `auth`: client_secret or private_key_jwt; a private_key_jwt client's public keys are shown as `jwks`. */
export function clientView(client: OAuthClient) {
  return {
    client_id: client.clientId,
    name: client.name,
    scopes: [...client.scopes],
    enabled: client.enabled,
    auth: clientAuthMethod(client),
    require_dpop: client.requireDpop,
    ...(client.jwks ? { jwks: client.jwks } : {}),
  };
}

export function keyView(key: SigningKeyInfo) {
  return {
    kid: key.kid,
    status: key.status,
    alg: key.alg,
    created_at: key.createdAt,
    activated_at: key.activatedAt,
    retired_at: key.retiredAt,
    remove_after: key.removeAfter,
    promotable_at: key.promotableAt,
  };
}
