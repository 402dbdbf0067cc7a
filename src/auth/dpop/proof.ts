import { createHash } from 'node:crypto';
import { isCanonicalBase64url, decodeJsonObject } from '../compact.ts';
import { describeValue } from '../describe.ts';
import { verifySignature } from '../signature.ts';
import { normalizeHtu } from './htu.ts';
import type { DpopNonces } from './nonce.ts';
import { createProofKeyMemo, DPOP_PROOF_TYPE } from './proof-key.ts';

export { DPOP_PROOF_TYPE };
/** A proof is small (one public key, a few claims); anything longer is refused unparsed. */
export const MAX_PROOF_LENGTH = 4096;
const MAX_JTI_LENGTH = 256;

/** What one request must show its proof against. */
export interface ProofRequest {
  /** The `DPoP` header value; undefined when the request has none. */
  readonly proof: string | undefined;
  /** The request method (`htm`). */
  readonly method: string;
  /** The request URL as the client addressed it (`htu`; query and fragment are ignored). */
  readonly url: string;
  /** The access token the proof goes with: its hash must be `ath`. Absent at the token endpoint. */
  readonly accessToken?: string | undefined;
  /**
   * The server's nonces (RFC 9449 §8): a proof whose `nonce` is not a current one is
   * `use_dpop_nonce`, and so is one without a `nonce` when they are required. Without them a
   * proof's `nonce` is ignored.
   */
  readonly nonces?: DpopNonces | undefined;
}

export interface ProofRules {
  /** Epoch milliseconds now. */
  readonly now: () => number;
  /** How far `iat` may be from now, either way (seconds). */
  readonly iatWindowSec: number;
}

export interface ValidProof {
  readonly ok: true;
  /** RFC 7638 SHA-256 thumbprint of the proof's key: what `cnf.jkt` binds a token to. */
  readonly jkt: string;
  readonly jti: string;
  readonly iat: number;
}

/** `use_dpop_nonce`: the proof is fine but for its nonce, which is missing or not ours (RFC 9449 §8, §9). */
export interface RefusedProof {
  readonly ok: false;
  readonly error: 'invalid_dpop_proof' | 'use_dpop_nonce';
  /** Which check failed, for the log only. */
  readonly detail: string;
}

export type ProofResult = ValidProof | RefusedProof;

const refuse = (detail: string): RefusedProof => ({ ok: false, error: 'invalid_dpop_proof', detail });

/** `ath` (RFC 9449 §4.2): base64url SHA-256 of the access token's ASCII. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url');
}

const proofKey = createProofKeyMemo();

/** A JWT time claim, when present: a finite number (RFC 7519 §2 NumericDate). */
const isTime = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value));

/**
 * The signed claims of a compact JWS proof, or why not: the key its header names (proof-key.ts,
 * remembered per header text) verifies its signature, with node:crypto directly, synchronously.
 */
function signedClaims(proof: string, now: number): { payload: Record<string, unknown>; jkt: string } | string {
  const first = proof.indexOf('.');
  const second = proof.indexOf('.', first + 1);
  if (first <= 0 || second <= first + 1 || proof.indexOf('.', second + 1) !== -1)
    return 'malformed (not a three-segment compact JWS)';
  const key = proofKey(proof.slice(0, first));
  if (typeof key === 'string') return key;
  const signature = proof.slice(second + 1);
  if (!isCanonicalBase64url(signature)) return 'malformed (signature is not canonical base64url)';
  if (!verifySignature(key.alg, key.key, proof.slice(0, second), Buffer.from(signature, 'base64url')))
    return 'signature invalid';
  const payload = decodeJsonObject(proof.slice(first + 1, second));
  if (payload === undefined) return 'malformed (payload is not a base64url JSON object)';
  // As a JWT library would: a proof that says it has expired, or is not valid yet, is not.
  const { exp, nbf } = payload;
  if (!isTime(exp) || (exp !== undefined && (exp as number) * 1000 <= now)) return 'claim exp invalid';
  if (!isTime(nbf) || (nbf !== undefined && (nbf as number) * 1000 > now)) return 'claim nbf invalid';
  return { payload, jkt: key.jkt };
}

/**
 * Checks a DPoP proof (RFC 9449 §4.3) in this order: present and short enough → compact JWS with
 * `typ: dpop+jwt`, a supported asymmetric `alg` and a public `jwk` → signature by that key → `htm`,
 * `htu` (scheme, host and path, normalised) → `iat` within the window → `jti` → `ath` when a
 * token goes with it → `nonce` when the server hands nonces out. Synchronous; never throws for
 * any input; the replay check (the `jti` seen before) is the caller's, after this passes.
 */
export function verifyProof(request: ProofRequest, rules: ProofRules): ProofResult {
  const { proof } = request;
  if (proof === undefined || proof === '') return refuse('no DPoP proof');
  if (typeof proof !== 'string' || proof.length > MAX_PROOF_LENGTH) return refuse('DPoP proof too long');
  const now = rules.now();
  const signed = signedClaims(proof, now);
  if (typeof signed === 'string') return refuse(signed);
  const { payload } = signed;
  const { htm, htu, iat, jti } = payload;
  if (htm !== request.method) return refuse(`htm ${describeValue(htm, 16)} is not ${request.method}`);
  const wanted = normalizeHtu(request.url);
  if (typeof htu !== 'string' || wanted === undefined || normalizeHtu(htu) !== wanted) return refuse('htu mismatch');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return refuse('iat missing');
  if (Math.abs(now / 1000 - iat) > rules.iatWindowSec) return refuse('iat outside the window');
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) return refuse('jti missing or too long');
  if (request.accessToken !== undefined && payload['ath'] !== accessTokenHash(request.accessToken))
    return refuse('ath does not match the access token');
  const nonceProblem = checkNonce(request.nonces, payload['nonce']);
  if (nonceProblem !== undefined) return { ok: false, error: 'use_dpop_nonce', detail: nonceProblem };
  return { ok: true, jkt: signed.jkt, jti, iat: Math.floor(iat) };
}

/** Why the proof's `nonce` is not good enough, or undefined when it is (or nonces are off). */
function checkNonce(nonces: DpopNonces | undefined, nonce: unknown): string | undefined {
  if (nonces === undefined) return undefined;
  if (nonce === undefined) return nonces.mode === 'required' ? 'nonce missing' : undefined;
  return nonces.accepts(nonce) ? undefined : 'nonce stale or not ours';
}
