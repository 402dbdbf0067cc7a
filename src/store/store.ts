import type { Clock } from '#common';
import { createAccount, getAccount, listAccounts, updateAccount } from './accounts.ts';
import { createApiKey, getApiKey, listApiKeys } from './api-keys.ts';
import type { Backend } from './backend.ts';
import {
  createClient,
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
import type { Store } from './types.ts';
import { claimJti, pruneJtis } from './used-jtis.ts';

/** Binds the per-table functions to one backend; the SQL is the same for both. */
export function createStore({ kind, runner: db, signal }: Backend, clock: Clock): Store {
  let closed: Promise<void> | null = null;
  return {
    kind,
    createAccount: (input) => createAccount(db, input, clock.now()),
    getAccount: (id) => getAccount(db, id),
    listAccounts: () => listAccounts(db),
    updateAccount: (id, change) => updateAccount(db, id, change),

    createProject: (input) => createProject(db, input, clock.now()),
    getProject: (id) => getProject(db, id),
    listProjects: (accountId) => listProjects(db, accountId),
    deleteProject: (id) => deleteProject(db, id),

    createClient: (input) => createClient(db, input, clock.now()),
    getClient: (clientId) => getClient(db, clientId),
    listClients: (projectId) => listClients(db, projectId),
    setClientEnabled: (clientId, enabled) => setClientEnabled(db, clientId, enabled),
    raiseClientGeneration: (clientId) => raiseClientGeneration(db, clientId),
    setClientJwks: (clientId, jwks) => setClientJwks(db, clientId, jwks),
    setClientRequireDpop: (clientId, required) => setClientRequireDpop(db, clientId, required),
    claimJti: (scope, jti, expiresAtSec) => claimJti(db, scope, jti, expiresAtSec),
    pruneJtis: (nowSeconds) => pruneJtis(db, nowSeconds),

    createApiKey: (input) => createApiKey(db, input, clock.now()),
    getApiKey: (key) => getApiKey(db, key),
    listApiKeys: (projectId) => listApiKeys(db, projectId),

    listSigningKeys: () => listSigningKeys(db),
    insertSigningKey: (key) => insertSigningKey(db, key),
    updateSigningKeys: (changes) => updateSigningKeys(db, changes),
    deleteSigningKey: (kid) => deleteSigningKey(db, kid),

    async addRevocation(entry) {
      const added = await addRevocation(db, entry, clock.now());
      signal.committed();
      return added;
    },
    revocationsSince: (cursor, nowSeconds, limit) => revocationsSince(db, cursor, nowSeconds, limit),
    pruneRevocations: (nowSeconds) => pruneRevocations(db, nowSeconds),
    onRevocation: (listener) => signal.subscribe(listener),

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

    ping: async () => void (await db.query('SELECT 1')),

    close() {
      closed ??= signal.close().finally(() => db.close());
      return closed;
    },
  };
}
