import type { Clock } from '#common';
import { fail } from '../failure.ts';
import type { AuthDecision, DpopOptions, DpopRequest, RouteRequirement } from '../types.ts';
import { verifyProof } from './proof.ts';
import { createMemoryReplayCache } from './replay-cache.ts';

type VerifyToken = (
  authorization: string,
  raw: string,
  requirement: RouteRequirement,
  presentedDpop: boolean,
) => AuthDecision | Promise<AuthDecision>;

const SCHEME = 'dpop';
const SPACE = 0x20;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** `DPoP` (any case) then a space: the RFC 9449 §7.1 scheme. */
export function isDpopScheme(value: string | undefined): boolean {
  if (typeof value !== 'string' || value.length < 5 || value.charCodeAt(4) !== SPACE) return false;
  for (let i = 0; i < SCHEME.length; i++) if ((value.charCodeAt(i) | 0x20) !== SCHEME.charCodeAt(i)) return false;
  return true;
}

/**
 * `Authorization: DPoP <token>` at a resource server (RFC 9449 §7): the token is verified as
 * any other (cache, signature, claims, expiry, revocation, scope) and must be bound (`cnf.jkt`);
 * then the `DPoP` proof: signed by its header key, `htm` the request method, `htu` the URL as the
 * client addressed it, `iat` within the window, `ath` the token's hash, its key's thumbprint the
 * token's `cnf.jkt`, and its `jti` not accepted before (the replay cache). Every failure carries
 * `dpop: true`, so the challenge is a DPoP one.
 */
export function createDpopCheck(options: DpopOptions, clock: Clock, maxTokenLength: number) {
  const iatWindowSec = options.iatWindowSec ?? 60;
  const replay = options.replay ?? createMemoryReplayCache(() => clock.now());
  const now = () => clock.now();

  async function authorize(
    authorization: string,
    requirement: RouteRequirement,
    request: DpopRequest | undefined,
    verifyToken: VerifyToken,
  ): Promise<AuthDecision> {
    let start = 5;
    while (authorization.charCodeAt(start) === SPACE) start++;
    const raw = authorization.slice(start);
    if (raw === '' || raw.length > maxTokenLength || !TOKEN68.test(raw))
      return { ...fail('invalid_token', 'Authorization is not "DPoP", spaces, then a token'), dpop: true };
    const decision = await verifyToken(authorization, raw, requirement, true);
    if (!decision.ok) return { ...decision, dpop: true };
    const header = request?.headers['dpop'];
    const proof = Array.isArray(header) ? header.join(', ') : header;
    const url = request === undefined ? undefined : options.htu(request);
    if (url === undefined) return refuse('no request URL to check htu against');
    const result = await verifyProof(
      { proof, method: request?.method ?? '', url, accessToken: raw },
      { now, iatWindowSec },
    );
    if (!result.ok) return refuse(result.detail);
    if (result.jkt !== decision.token.jkt) return refuse("proof key is not the token's cnf.jkt");
    const expiresAtMs = (result.iat + iatWindowSec + 1) * 1000;
    if (!(await replay.claim(`${result.jkt}.${result.jti}`, expiresAtMs))) return refuse('proof replayed (jti seen)');
    return decision;
  }

  return { authorize };
}

function refuse(detail: string): AuthDecision {
  return { ...fail('invalid_dpop_proof', detail), dpop: true };
}
