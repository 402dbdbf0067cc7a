import type { Clock, Logger } from '#common';
import { addActivity, listActivity } from './activity.ts';
import { createAccount, getAccount, listAccounts, updateAccount } from './accounts.ts';
import { createApiKey, deleteApiKey, getApiKey, listApiKeys, setApiKeyEnabled } from './api-keys.ts';
import type { Backend } from './backend.ts';
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  raiseClientGeneration,
  setClientEnabled,
  setClientJwks,
  setClientRequireDpop,
} from './clients.ts';
import { createProject, deleteProject, getProject, listProjects } from './projects.ts';
import {
  createPortalSession,
  deletePortalSession,
  deleteUserSessions,
  getPortalSession,
  prunePortalSessions,
  setPortalSessionFlash,
  takePortalSessionFlash,
} from './portal-sessions.ts';
import {
  acceptInvitation,
  changeMembership,
  createInvitation,
  findUserByEmail,
  getUser,
  listAccountPeople,
  listMemberships,
  peekInvitation,
  setUserPassword,
} from './people.ts';
import { addUsage, apiKeyProjects, projectPolicies, setProjectLimits, usageBetween } from './rate-limits.ts';
import { addRevocation, pruneRevocations, revocationsSince } from './revocations.ts';
import { deleteSigningKey, insertSigningKey, listSigningKeys, updateSigningKeys } from './signing-keys.ts';
import { notifyChange, type StoreChange } from './store-change.ts';
import type { Store } from './types.ts';
import { claimJti, pruneJtis } from './used-jtis.ts';

/**
 * Binds the per-table functions to one backend; the SQL is the same for both. Every change a
 * replica may have cached is announced once committed (store-change.ts): to this process at
 * once, to the others by NOTIFY. A NOTIFY that fails is logged, not thrown (the change is
 * committed; the others read it again on their timers).
 */
export function createStore({ kind, runner: db, signal }: Backend, clock: Clock, log?: Logger): Store {
  let closed: Promise<void> | null = null;
  const announce = async (change: StoreChange) => {
    signal.changed(change);
    if (kind === 'embedded') return;
    await notifyChange(db, change).catch((error: unknown) =>
      log?.warn({ err: error, change }, 'store change committed but not announced to other replicas'),
    );
  };
  /** Runs a change and, once it committed (and `id` names what changed), announces it. */
  const changing = async <T>(work: Promise<T>, kindOf: StoreChange['kind'], id: (result: T) => string | null) => {
    const result = await work;
    const changed = id(result);
    if (changed !== null || kindOf === 'signing_keys') await announce({ kind: kindOf, id: changed });
    return result;
  };
  return {
    kind,
    createAccount: (input) => createAccount(db, input, clock.now()),
    getAccount: (id) => getAccount(db, id),
    listAccounts: () => listAccounts(db),
    updateAccount: (id, change) => changing(updateAccount(db, id, change), 'account', (a) => a?.id ?? null),

    createProject: (input) => changing(createProject(db, input, clock.now()), 'project', (p) => p.id),
    getProject: (id) => getProject(db, id),
    listProjects: (accountId) => listProjects(db, accountId),
    deleteProject: (id) => changing(deleteProject(db, id), 'project', (deleted) => (deleted ? id : null)),

    createClient: (input) => changing(createClient(db, input, clock.now()), 'client', (c) => c.clientId),
    getClient: (clientId) => getClient(db, clientId),
    listClients: (projectId) => listClients(db, projectId),
    setClientEnabled: (clientId, enabled) =>
      changing(setClientEnabled(db, clientId, enabled), 'client', (c) => c?.clientId ?? null),
    deleteClient: (clientId) => changing(deleteClient(db, clientId), 'client', (c) => c?.clientId ?? null),
    raiseClientGeneration: (clientId) =>
      changing(raiseClientGeneration(db, clientId), 'client', (g) => (g === null ? null : clientId)),
    setClientJwks: (clientId, jwks) =>
      changing(setClientJwks(db, clientId, jwks), 'client', (c) => c?.clientId ?? null),
    setClientRequireDpop: (clientId, required) =>
      changing(setClientRequireDpop(db, clientId, required), 'client', (c) => c?.clientId ?? null),
    claimJti: (scope, jti, expiresAtSec) => claimJti(db, scope, jti, expiresAtSec),
    pruneJtis: (nowSeconds) => pruneJtis(db, nowSeconds),

    createApiKey: (input) => changing(createApiKey(db, input, clock.now()), 'api_key', (k) => k.key),
    getApiKey: (key) => getApiKey(db, key),
    setApiKeyEnabled: (key, enabled) => changing(setApiKeyEnabled(db, key, enabled), 'api_key', (k) => k?.key ?? null),
    deleteApiKey: (key) => changing(deleteApiKey(db, key), 'api_key', (k) => k?.key ?? null),
    listApiKeys: (projectId) => listApiKeys(db, projectId),

    listSigningKeys: () => listSigningKeys(db),
    insertSigningKey: (key) => changing(insertSigningKey(db, key), 'signing_keys', () => null),
    updateSigningKeys: (changes) => changing(updateSigningKeys(db, changes), 'signing_keys', () => null),
    deleteSigningKey: (kid) => changing(deleteSigningKey(db, kid), 'signing_keys', () => null),

    async addRevocation(entry) {
      const added = await addRevocation(db, entry, clock.now());
      signal.committed();
      return added;
    },
    revocationsSince: (cursor, nowSeconds, limit) => revocationsSince(db, cursor, nowSeconds, limit),
    pruneRevocations: (nowSeconds) => pruneRevocations(db, nowSeconds),
    onRevocation: (listener) => signal.subscribe(listener),
    onChange: (listener) => signal.subscribeChanges(listener),

    createPortalSession: (ttlMs, userId) => createPortalSession(db, ttlMs, clock.now(), userId ?? null),
    deleteUserSessions: (userId, exceptId) => deleteUserSessions(db, userId, exceptId),

    getUser: (id) => getUser(db, id),
    findUserByEmail: (email) => findUserByEmail(db, email),
    setUserPassword: (id, hash) => setUserPassword(db, id, hash),
    listMemberships: (userId) => listMemberships(db, userId),
    listAccountPeople: (accountId) => listAccountPeople(db, accountId),
    changeMembership: (accountId, userId, role) => changeMembership(db, accountId, userId, role),
    createInvitation: (input) => createInvitation(db, input, clock.now()),
    peekInvitation: (token) => peekInvitation(db, token, clock.now()),
    acceptInvitation: (token, hash) => acceptInvitation(db, token, hash, clock.now()),
    getPortalSession: (id) => getPortalSession(db, id, clock.now()),
    setPortalSessionFlash: (id, flash) => setPortalSessionFlash(db, id, flash, clock.now()),
    takePortalSessionFlash: (id) => takePortalSessionFlash(db, id),
    deletePortalSession: (id) => deletePortalSession(db, id),
    prunePortalSessions: (limit) => prunePortalSessions(db, clock.now(), limit),

    setProjectLimits: (projectId, override) => setProjectLimits(db, projectId, override, clock.now()),
    projectPolicies: () => projectPolicies(db),
    apiKeyProjects: () => apiKeyProjects(db),
    addUsage: (reports) => addUsage(db, reports),
    usageBetween: (projectId, fromDay, toDay) => usageBetween(db, projectId, fromDay, toDay),

    addActivity: (entry) => addActivity(db, entry, clock.now()),
    listActivity: (accountId, limit) => listActivity(db, accountId, limit),

    ping: async () => void (await db.query('SELECT 1')),

    close() {
      closed ??= signal.close().finally(() => db.close());
      return closed;
    },
  };
}
