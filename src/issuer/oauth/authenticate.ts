import type { IncomingMessage } from 'node:http';
import { hashSecret, type Logger, verifySecret } from '#common';
import type { ClientDirectory, ClientRecord } from '../clients/client-directory.ts';
import type { BruteForceGuard } from './brute-force.ts';
import type { FormParams } from './form.ts';
import { OAuthError } from './oauth-error.ts';
import { presentedCredentials } from './credentials.ts';
import { sourceAddress } from './source-address.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

export interface ClientAuthDeps {
  readonly clients: ClientDirectory;
  readonly guard: BruteForceGuard;
  readonly trustedProxies: TrustedProxies;
  readonly log: Logger;
}

/** Compared against when the client id is unknown, so both failures cost the same (no enumeration). */
const DUMMY_HASH = hashSecret('tokengate-unknown-client');

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
 * disabled client, a deleted project and a disabled account all answer the same 401 `invalid_client`; the reason
 * goes to the log (with the client id and address, never the secret, nor a secret sent as the id).
 */
export async function authenticateClient(
  req: IncomingMessage,
  form: FormParams,
  deps: ClientAuthDeps,
): Promise<ClientRecord> {
  const credentials = presentedCredentials(req.headers.authorization, form);
  const record = await deps.clients.get(credentials.clientId);
  const secretOk = verifySecret(credentials.clientSecret, record?.client.secretHash ?? DUMMY_HASH);
  const reason = !record
    ? 'unknown client'
    : !secretOk
      ? 'wrong secret'
      : !record.client.enabled
        ? 'client disabled'
        : !record.project
          ? 'project deleted'
          : !record.project.accountEnabled
            ? 'account disabled'
            : null;
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
