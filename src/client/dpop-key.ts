import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type KeyObject } from 'jose';

/** The algorithms tokengate accepts for DPoP proofs. */
export type DpopAlgorithm = 'ES256' | 'EdDSA' | 'RS256' | 'PS256';

/** A DPoP key pair the caller holds: tokens are bound to the public key's thumbprint. */
export interface DpopKeyPair {
  readonly privateKey: CryptoKey | KeyObject;
  readonly publicKey: CryptoKey | KeyObject;
  readonly alg: DpopAlgorithm;
}

/** What signs proofs: the private key, and the public key as it goes into each proof's header. */
export interface DpopSigner {
  readonly privateKey: CryptoKey | KeyObject;
  readonly alg: DpopAlgorithm;
  readonly jwk: JWK;
}

const ALGORITHMS: ReadonlySet<string> = new Set(['ES256', 'EdDSA', 'RS256', 'PS256']);
/** The public members per key type (RFC 7518 §6, RFC 8037 §2): nothing else goes into a proof. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  EC: ['kty', 'crv', 'x', 'y'],
  OKP: ['kty', 'crv', 'x'],
  RSA: ['kty', 'n', 'e'],
};

/** Misuse throws a TypeError at construction: a pair whose halves are swapped would never verify. */
export function checkDpopOption(option: true | DpopKeyPair): void {
  if (option === true) return;
  if (typeof option !== 'object' || option === null) throw new TypeError('dpop must be true or a key pair');
  if (!ALGORITHMS.has(option.alg)) throw new TypeError('dpop.alg must be one of ES256, EdDSA, RS256, PS256');
  if (option.privateKey?.type !== 'private') throw new TypeError('dpop.privateKey must be a private key');
  if (option.publicKey?.type !== 'public') throw new TypeError('dpop.publicKey must be a public key');
}

/**
 * The signer for `option`, made on first use and then kept: `true` generates a non-extractable
 * ES256 pair with jose, held only in this process (tokens bound to it die with it).
 */
export function dpopSigner(option: true | DpopKeyPair): () => Promise<DpopSigner> {
  let signer: Promise<DpopSigner> | undefined;
  return () => {
    signer ??= makeSigner(option);
    return signer;
  };
}

async function makeSigner(option: true | DpopKeyPair): Promise<DpopSigner> {
  const pair = option === true ? { ...(await generateKeyPair('ES256')), alg: 'ES256' as const } : option;
  return { privateKey: pair.privateKey, alg: pair.alg, jwk: publicJwk(await exportJWK(pair.publicKey)) };
}

function publicJwk(exported: JWK): JWK {
  const members = PUBLIC_MEMBERS[exported.kty ?? ''];
  if (members === undefined) throw new TypeError('dpop.publicKey must be an EC, OKP or RSA key');
  const all = exported as Record<string, unknown>;
  return Object.fromEntries(members.map((name) => [name, all[name]]));
}
