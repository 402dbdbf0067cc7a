import type { Clock } from '#common';
import { fail } from '../failure.ts';
import type { AuthDecision, AuthFailure, DpopOptions, DpopRequest, RouteRequirement } from '../types.ts';
import { verifyProof } from './proof.ts';
import { createMemoryReplayCache } from './replay-cache.ts';

type VerifyToken = (
  authorization: string,
  raw: string,
  requirement: RouteRequirement,
  presented: 'dpop',
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
 * token's `cnf.jkt`, its `nonce` a current server nonce when nonces are on, and its `jti` not
 * accepted before (the replay cache). Every failure carries `dpop: true`, so the challenge is a
 * DPoP one; with nonces on, every answer carries a fresh nonce (`dpopNonce`) for the next proof.
 */
export function createDpopCheck(options: DpopOptions, clock: Clock, maxTokenLength: number) {
  const iatWindowSec = options.iatWindowSec ?? 60;
  const replay = options.replay ?? createMemoryReplayCache(() => clock.now());
  const now = () => clock.now();
  const { nonces } = options;
  const refused = (failure: AuthFailure): AuthFailure => ({
    ...failure,
    dpop: true,
    ...(nonces === undefined ? {} : { dpopNonce: nonces.current() }),
  });
  const refuse = (kind: AuthFailure['kind'], detail: string) => refused(fail(kind, detail));

  /**
   * Synchronous while the token check and the replay cache are (a cached token, the in-memory
   * cache): a promise per call would cost the caller an asynchronous step for nothing.
   */
  function authorize(
    authorization: string,
    requirement: RouteRequirement,
    request: DpopRequest | undefined,
    verifyToken: VerifyToken,
  ): AuthDecision | Promise<AuthDecision> {
    let start = 5;
    while (authorization.charCodeAt(start) === SPACE) start++;
    const raw = authorization.slice(start);
    if (raw === '' || raw.length > maxTokenLength || !TOKEN68.test(raw))
      return refuse('invalid_token', 'Authorization is not "DPoP", spaces, then a token');
    const decision = verifyToken(authorization, raw, requirement, 'dpop');
    return decision instanceof Promise
      ? decision.then((settled) => withProof(settled, raw, request))
      : withProof(decision, raw, request);
  }

  /** The proof, once the token it goes with is accepted, then its `jti` in the replay cache. */
  function withProof(
    decision: AuthDecision,
    raw: string,
    request: DpopRequest | undefined,
  ): AuthDecision | Promise<AuthDecision> {
    if (!decision.ok) return refused(decision);
    const header = request?.headers['dpop'];
    const proof = Array.isArray(header) ? header.join(', ') : header;
    const url = request === undefined ? undefined : options.htu(request);
    if (url === undefined) return refuse('invalid_dpop_proof', 'no request URL to check htu against');
    const result = verifyProof(
      { proof, method: request?.method ?? '', url, accessToken: raw, nonces },
      { now, iatWindowSec },
    );
    if (!result.ok) return refuse(result.error, result.detail);
    if (result.jkt !== decision.token.jkt) return refuse('invalid_dpop_proof', "proof key is not the token's cnf.jkt");
    const expiresAtMs = (result.iat + iatWindowSec + 1) * 1000;
    const fresh = replay.claim(`${result.jkt}.${result.jti}`, expiresAtMs);
    return fresh instanceof Promise ? fresh.then((f) => accepted(f, decision)) : accepted(fresh, decision);
  }

  function accepted(fresh: boolean, decision: AuthDecision): AuthDecision {
    if (!fresh) return refuse('invalid_dpop_proof', 'proof replayed (jti seen)');
    return nonces === undefined ? decision : { ...decision, dpopNonce: nonces.current() };
  }

  return { authorize };
}
