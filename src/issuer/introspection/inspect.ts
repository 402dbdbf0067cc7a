import type { VerifiedToken, Verifier } from '#auth';
import type { ClientDirectory, ClientRecord } from '../clients/client-directory.ts';

/** RFC 7662 §2.2: an active token's answer, or `{active: false}` and nothing else. */
export type IntrospectionAnswer =
  | {
      readonly active: true;
      readonly scope: string;
      readonly client_id: string;
      readonly token_type: 'Bearer' | 'DPoP';
      readonly exp: number;
      readonly iat: number;
      readonly sub: string;
      readonly aud: string;
      readonly iss: string;
      readonly jti: string;
      readonly cnf?: { readonly jkt: string };
    }
  | { readonly active: false };

export interface InspectorDeps {
  /** The plugin over the issuer's own keys and revocations: what the gateways and the upstream run. */
  readonly verifier: Pick<Verifier, 'inspect'>;
  readonly clients: ClientDirectory;
  readonly issuer: string;
  readonly audience: string;
}

export type Inspector = (token: string) => Promise<{ answer: IntrospectionAnswer; reason: string | null }>;

const INACTIVE: IntrospectionAnswer = Object.freeze({ active: false });

/**
 * Whether the gateway would accept the token right now: the plugin's checks (signature with a
 * published key, iss, aud, typ, lifetime, expiry, revocation by jti and by client cut-off), then
 * the state the upstream checks behind it, read as the token endpoint reads it (every replica's
 * changes evict the cached record at once): the client still exists, is enabled and its
 * generation is the token's, its project exists and its account is enabled. `reason` is for the
 * log only; the caller learns nothing but `active: false`.
 */
export function createInspector(deps: InspectorDeps): Inspector {
  return async (raw) => {
    const decision = await deps.verifier.inspect(raw);
    if (!decision.ok) return { answer: INACTIVE, reason: `${decision.kind}: ${decision.detail}` };
    const { token } = decision;
    const reason = stateProblem(token, await currentRecord(deps.clients, token.clientId));
    if (reason !== null) return { answer: INACTIVE, reason };
    return { answer: activeAnswer(token, deps), reason: null };
  };
}

async function currentRecord(clients: ClientDirectory, clientId: string): Promise<ClientRecord | null> {
  const record = await clients.get(clientId);
  // A lookup that raced an eviction may predate a disable: read the store again.
  return record === null || clients.isCurrent(record) ? record : clients.reload(clientId);
}

function stateProblem(token: VerifiedToken, record: ClientRecord | null): string | null {
  if (record === null) return 'client gone';
  const { client, project } = record;
  if (!client.enabled) return 'client disabled';
  if (client.projectId !== token.projectId) return 'project is not the client’s';
  if (token.clientGen !== undefined && token.clientGen < client.generation) return 'client generation raised';
  if (project === null) return 'project deleted';
  return project.accountEnabled ? null : 'account disabled';
}

function activeAnswer(token: VerifiedToken, deps: InspectorDeps): IntrospectionAnswer {
  return {
    active: true,
    scope: token.scopes.join(' '),
    client_id: token.clientId,
    token_type: token.jkt === undefined ? 'Bearer' : 'DPoP',
    exp: token.exp,
    iat: token.iat,
    sub: token.sub,
    aud: deps.audience,
    iss: deps.issuer,
    jti: token.jti,
    ...(token.jkt === undefined ? {} : { cnf: { jkt: token.jkt } }),
  };
}
