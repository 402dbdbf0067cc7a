import type { IncomingMessage } from 'node:http';
import { type Clock, type Logger, verifyRotatingSecret } from '#common';
import type { ClientDirectory, ClientRecord } from '../clients/client-directory.ts';
import type { BruteForceGuard } from './brute-force.ts';
import type { ClientAssertions } from './client-assertion.ts';
import type { FormParams } from './form.ts';
import { OAuthError } from './oauth-error.ts';
import { type PresentedCredentials, presentedCredentials } from './credentials.ts';
import { sourceAddress } from './source-address.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

export interface ClientAuthDeps {
  readonly clients: ClientDirectory;
  readonly guard: BruteForceGuard;
  readonly assertions: ClientAssertions;
  readonly trustedProxies: TrustedProxies;
  readonly log: Logger;
  /** When a rotated client's previous secret stops (its overlap ends). */
  readonly clock: Clock;
}

/** What could be one of our ids, typos and truncations included (we mint `cli_` + 22 base64url); no secret starts `cli_`. */
const CLIENT_ID_SHAPE = /^cli_[A-Za-z0-9_-]{1,124}$/;

/**
 * The presented client id as the log may show it. An unknown value that is not shaped like our
 * ids is often a secret in the wrong place (id and secret swapped, the secret pasted as the id):
 * only its length is logged.
 */
function loggableClientId(presented: string, known: boolean): string {
  return known || CLIENT_ID_SHAPE.test(presented) ? presented : `(not a client id: ${presented.length} characters)`;
}

/**
 * Client authentication shared by the token and revocation endpoints. Unknown id, wrong secret,
 * a failed assertion, the other mechanism than the client's, disabled client, a deleted project and a
 * disabled account all answer the same 401 `invalid_client`; the reason goes to the log (with the
 * client id and address, never the secret, nor a secret sent as the id, nor an assertion).
 */
export async function authenticateClient(
  req: IncomingMessage,
  form: FormParams,
  deps: ClientAuthDeps,
): Promise<ClientRecord> {
  const credentials = presentedCredentials(req.headers.authorization, form);
  const fresh = credentials.method === 'private_key_jwt';
  // Read from the store, not the cache, for an assertion: a replaced key set counts at once on every replica.
  let record = await deps.clients.get(credentials.clientId, fresh ? { fresh: true } : undefined);
  let reason = record ? await refusalReason(credentials, record, deps) : unknownClient(credentials);
  // Correct credentials refused for the client's state are never counted on a record this replica
  // may hold from before an enable it has not heard of: the store decides (one query, and only
  // for whoever proved to be the client).
  if (record && !fresh && reason !== null && reason === stateProblem(record)) {
    record = await deps.clients.reload(credentials.clientId);
    reason = record ? stateProblem(record) : 'unknown client';
  }
  // Correct credentials pass whatever the failure counters say (see BruteForceGuard).
  if (record && reason === null) return record;
  const address = sourceAddress(req, deps.trustedProxies);
  const refusal = deps.guard.failed(
    credentials.clientId,
    address,
    new OAuthError('invalid_client', 'client authentication failed'),
  );
  deps.log.warn(
    {
      clientId: loggableClientId(credentials.clientId, record !== null),
      address,
      method: credentials.method,
      reason,
      throttled: refusal.status === 429,
    },
    'client authentication failed',
  );
  throw refusal;
}

/** For an unknown id, a secret is still compared (against dummies, twice) so it costs what a known one does. */
function unknownClient(credentials: PresentedCredentials): string {
  if (credentials.method !== 'private_key_jwt') verifyRotatingSecret(credentials.clientSecret, null, null, 0);
  return 'unknown client';
}

/** Why this known client is refused, or null when it may have a token. */
async function refusalReason(credentials: PresentedCredentials, record: ClientRecord, deps: ClientAuthDeps) {
  const problem = await credentialsProblem(credentials, record, deps);
  return problem ?? stateProblem(record);
}

/** Why a client whose credentials hold may not have a token now, or null. */
function stateProblem(record: ClientRecord): string | null {
  if (!record.client.enabled) return 'client disabled';
  if (!record.project) return 'project deleted';
  return record.project.accountEnabled ? null : 'account disabled';
}

/** Why the credentials do not prove this client, or null when they do. */
async function credentialsProblem(
  credentials: PresentedCredentials,
  record: ClientRecord,
  deps: ClientAuthDeps,
): Promise<string | null> {
  const { client } = record;
  if (credentials.method === 'private_key_jwt') {
    if (!client.jwks) return 'assertion for a client that uses a secret';
    return deps.assertions.problem(credentials.assertion, client.clientId, client.jwks);
  }
  // The current secret, or the previous one during a rotation's overlap: both always compared (a
  // private_key_jwt client's absent ones against a dummy), so every case costs the same.
  const now = deps.clock.now();
  const secretOk = verifyRotatingSecret(credentials.clientSecret, client.secretHash, client.previousSecret, now);
  if (client.secretHash === null) return 'secret for a client that uses private_key_jwt';
  return secretOk ? null : 'wrong secret';
}
