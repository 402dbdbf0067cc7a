import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isSupportedAlgorithm, keyFitsAlgorithm, type SupportedAlgorithm } from '../algorithms.ts';
import { decodeJsonObject } from '../compact.ts';

/** RFC 9449 §4.2: the proof's `typ`. */
export const DPOP_PROOF_TYPE = 'dpop+jwt';

/** A proof header's key, imported, with the algorithm it signs with and its thumbprint. */
export interface ProofKey {
  readonly alg: SupportedAlgorithm;
  readonly key: KeyObject;
  /** RFC 7638 SHA-256 thumbprint, base64url: what `cnf.jkt` binds a token to. */
  readonly jkt: string;
}

/**
 * The public members of each key type, in lexicographic order: RFC 7638 §3.2's thumbprint input
 * is exactly these, in this order, as JSON without whitespace, and they are all a key needs.
 */
const THUMBPRINT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `typ` compared as a media type: any case, `application/` optional (RFC 7515 §4.1.9). */
function isProofType(typ: unknown): boolean {
  if (typeof typ !== 'string') return false;
  const lower = typ.toLowerCase();
  return lower === DPOP_PROOF_TYPE || lower === `application/${DPOP_PROOF_TYPE}`;
}

/** The public JWK's thumbprint members, or why it is refused (a private key, a bad member). */
function publicMembers(jwk: Record<string, unknown>, alg: SupportedAlgorithm): Record<string, string> | string {
  // A private JWK would import as its public half: RFC 9449 §4.3 wants a public key only.
  if (Object.hasOwn(jwk, 'd')) return 'jwk is a private key';
  if (jwk['alg'] !== undefined && jwk['alg'] !== alg) return 'jwk alg differs';
  if (jwk['use'] !== undefined && jwk['use'] !== 'sig') return 'jwk use is not sig';
  const ops = jwk['key_ops'];
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) return 'jwk key_ops lacks verify';
  const names = typeof jwk['kty'] === 'string' ? THUMBPRINT_MEMBERS[jwk['kty']] : undefined;
  if (names === undefined) return 'jwk kty unsupported';
  const members: Record<string, string> = {};
  for (const name of names) {
    const value = jwk[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return `jwk ${name} missing`;
    members[name] = value;
  }
  return members;
}

/**
 * The key a proof's protected header names (RFC 9449 §4.3 steps 4-7): `typ` dpop+jwt, a
 * supported asymmetric `alg`, no `crit`, and a public `jwk` that fits the algorithm (curve,
 * RSA size). A string says why not; `claim typ` and `alg not allowed` as before, the rest
 * `malformed (…)`.
 */
export function readProofKey(segment: string): ProofKey | string {
  const header = decodeJsonObject(segment);
  if (header === undefined) return 'malformed (header is not a base64url JSON object)';
  if (!isProofType(header['typ'])) return 'claim typ invalid';
  const alg = header['alg'];
  if (typeof alg !== 'string' || !isSupportedAlgorithm(alg)) return 'alg not allowed';
  if (header['crit'] !== undefined) return 'malformed (crit header present)';
  if (header['b64'] !== undefined && header['b64'] !== true) return 'malformed (b64 header present)';
  const jwk = header['jwk'];
  if (!isObject(jwk)) return 'malformed (jwk is not an object)';
  const members = publicMembers(jwk, alg);
  if (typeof members === 'string') return `malformed (${members})`;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: members, format: 'jwk' });
  } catch {
    return 'malformed (jwk is not a valid public key)';
  }
  if (!keyFitsAlgorithm(key, alg)) return `malformed (jwk does not fit ${alg})`;
  const jkt = createHash('sha256').update(JSON.stringify(members)).digest('base64url');
  return { alg, key, jkt };
}

/** Clients sign every proof with one key, so its header text repeats: this many are remembered. */
const MEMO_ENTRIES = 4_096;
const MAX_MEMO_SEGMENT = 2_048;

/**
 * `readProofKey` remembered by the header's exact text, a pure function of it: a client's next
 * proof costs a map lookup instead of a JSON parse, a key import and a hash (about 40 µs of an
 * ES256 proof). Bounded (least recently used leaves first), so random headers cannot grow it;
 * the refusals are remembered too, so a bad header repeated costs a lookup as well.
 */
export function createProofKeyMemo(): (segment: string) => ProofKey | string {
  const memo = new LRUCache<string, ProofKey | { readonly refused: string }>({ max: MEMO_ENTRIES });
  return (segment) => {
    const known = memo.get(segment);
    if (known !== undefined) return 'refused' in known ? known.refused : known;
    const read = readProofKey(segment);
    if (segment.length <= MAX_MEMO_SEGMENT) memo.set(segment, typeof read === 'string' ? { refused: read } : read);
    return read;
  };
}
