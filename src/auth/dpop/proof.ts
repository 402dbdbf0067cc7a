import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, errors, type JWK, jwtVerify } from 'jose';
import { SUPPORTED_ALGORITHMS } from '../algorithms.ts';
import { describeValue } from '../describe.ts';
import { normalizeHtu } from './htu.ts';
import type { DpopNonces } from './nonce.ts';

/** RFC 9449 §4.2: the proof's `typ`. */
export const DPOP_PROOF_TYPE = 'dpop+jwt';
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

/**
 * Checks a DPoP proof (RFC 9449 §4.3) in this order: present and short enough → compact JWS with
 * `typ: dpop+jwt`, a pinned asymmetric `alg` and a public `jwk` → signature by that key → `htm`,
 * `htu` (scheme, host and path, normalised) → `iat` within the window → `jti` → `ath` when a
 * token goes with it → `nonce` when the server hands nonces out. Never throws for any input; the
 * replay check (the `jti` seen before) is the caller's, after this passes.
 */
export async function verifyProof(request: ProofRequest, rules: ProofRules): Promise<ProofResult> {
  const { proof } = request;
  if (proof === undefined || proof === '') return refuse('no DPoP proof');
  if (typeof proof !== 'string' || proof.length > MAX_PROOF_LENGTH) return refuse('DPoP proof too long');
  let payload: Record<string, unknown>;
  let jwk: JWK;
  try {
    const verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: DPOP_PROOF_TYPE,
      algorithms: [...SUPPORTED_ALGORITHMS],
      // iat is checked below against our own window; jose would only check it is a number.
      currentDate: new Date(rules.now()),
    });
    payload = verified.payload;
    jwk = verified.protectedHeader.jwk as JWK;
  } catch (error) {
    return refuse(proofFailure(error));
  }
  const { htm, htu, iat, jti } = payload;
  if (htm !== request.method) return refuse(`htm ${describeValue(htm, 16)} is not ${request.method}`);
  const wanted = normalizeHtu(request.url);
  if (typeof htu !== 'string' || wanted === undefined || normalizeHtu(htu) !== wanted) return refuse('htu mismatch');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return refuse('iat missing');
  const nowSec = rules.now() / 1000;
  if (Math.abs(nowSec - iat) > rules.iatWindowSec) return refuse('iat outside the window');
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) return refuse('jti missing or too long');
  if (request.accessToken !== undefined && payload['ath'] !== accessTokenHash(request.accessToken))
    return refuse('ath does not match the access token');
  const nonceProblem = checkNonce(request.nonces, payload['nonce']);
  if (nonceProblem !== undefined) return { ok: false, error: 'use_dpop_nonce', detail: nonceProblem };
  return { ok: true, jkt: await calculateJwkThumbprint(jwk, 'sha256'), jti, iat: Math.floor(iat) };
}

/** Why the proof's `nonce` is not good enough, or undefined when it is (or nonces are off). */
function checkNonce(nonces: DpopNonces | undefined, nonce: unknown): string | undefined {
  if (nonces === undefined) return undefined;
  if (nonce === undefined) return nonces.mode === 'required' ? 'nonce missing' : undefined;
  return nonces.accepts(nonce) ? undefined : 'nonce stale or not ours';
}

function proofFailure(error: unknown): string {
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature invalid';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'alg not allowed';
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim} invalid`;
  if (error instanceof errors.JOSEError) return `malformed (${error.code})`;
  return 'malformed';
}
