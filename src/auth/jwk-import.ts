import { createPublicKey, type KeyObject } from 'node:crypto';
import { isSupportedAlgorithm, keyFitsAlgorithm, type SupportedAlgorithm } from './algorithms.ts';
import { describeValue } from './describe.ts';

/** A verification key taken from the set: imported once per kid and reused while unchanged. */
export interface ImportedKey {
  readonly kid: string;
  readonly key: KeyObject;
  /** The JWK's declared alg, if any (then only that alg verifies with it). */
  readonly alg: SupportedAlgorithm | undefined;
  /** The public members as JSON: equal text → the same key, no re-import. */
  readonly fingerprint: string;
}

const PUBLIC_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['kty', 'n', 'e'],
  EC: ['kty', 'crv', 'x', 'y'],
  OKP: ['kty', 'crv', 'x'],
};

function publicJwk(jwk: Record<string, unknown>): Record<string, string> | string {
  const members = typeof jwk['kty'] === 'string' ? PUBLIC_MEMBERS[jwk['kty']] : undefined;
  if (members === undefined) return `kty ${describeValue(jwk['kty'], 10)} unsupported`;
  const out: Record<string, string> = {};
  for (const name of members) {
    const value = jwk[name];
    if (typeof value !== 'string' || value.length > 2048) return `member ${name} missing`;
    out[name] = value;
  }
  return out;
}

function checkUse(
  jwk: Record<string, unknown>,
  pinned: ReadonlySet<SupportedAlgorithm>,
): SupportedAlgorithm | undefined | string {
  if (jwk['use'] !== undefined && jwk['use'] !== 'sig') return 'use is not sig';
  const ops = jwk['key_ops'];
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) return 'key_ops lacks verify';
  const alg = jwk['alg'];
  if (alg === undefined) return undefined;
  if (typeof alg !== 'string' || !isSupportedAlgorithm(alg) || !pinned.has(alg))
    return `alg ${describeValue(alg, 10)} not pinned`;
  return alg;
}

/**
 * Imports one JWK when it fits the pinned algorithms (kty/crv/size, and its alg if declared);
 * otherwise returns why it was ignored. Only public members are read. `previous` is reused
 * when the material is unchanged, so a refresh does not re-import keys or void cached tokens.
 */
export function importJwk(
  jwk: unknown,
  pinned: ReadonlySet<SupportedAlgorithm>,
  previous?: ImportedKey,
): ImportedKey | string {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return 'not an object';
  const record = jwk as Record<string, unknown>;
  const kid = record['kid'];
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 256) return 'kid missing';
  const alg = checkUse(record, pinned);
  if (typeof alg === 'string' && !isSupportedAlgorithm(alg)) return `${kid}: ${alg}`;
  const members = publicJwk(record);
  if (typeof members === 'string') return `${kid}: ${members}`;
  const fingerprint = JSON.stringify(members);
  if (previous?.fingerprint === fingerprint && previous.alg === alg) return previous;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: members, format: 'jwk' });
  } catch {
    return `${kid}: not a valid public key`;
  }
  const candidates = alg !== undefined ? [alg] : [...pinned];
  if (!candidates.some((a) => keyFitsAlgorithm(key, a))) return `${kid}: fits no pinned algorithm`;
  return { kid, key, alg, fingerprint };
}
