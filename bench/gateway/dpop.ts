/**
 * DPoP for the gateway bench (issue 23): the clients' P-256 keys, the tokens bound to them and
 * the proofs. The gateway refuses a proof's `jti` the second time and an `iat` more than 60 s
 * away, while a run lasts minutes, so proofs cannot be signed once per run: the load generator
 * signs each slice's batch just before that slice's clock starts (`proofBatcher`), while every
 * measured server is idle, and no proof is ever sent twice.
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomUUID,
  sign,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { type BenchKey, BENCH_ISSUER, mintTokens } from './mint.ts';

/** What the load generator reads from a DPoP scenario's file (JSON). */
export interface DpopClients {
  /** The proofs' algorithm: ES256 (P-256 keys) or EdDSA (Ed25519 keys). */
  readonly alg: DpopAlg;
  /** The URL the proofs name (`htu`): the gateway's public base URL and the route's path. */
  readonly htu: string;
  /** Each client's private key, as a JWK. */
  readonly keys: JWK[];
  /** The tokens, each with the index of the key it is bound to. */
  readonly tokens: Array<{ readonly token: string; readonly key: number }>;
}

/** The proof algorithms the bench measures: ES256 (P-256) and EdDSA (Ed25519). */
export type DpopAlg = 'ES256' | 'EdDSA';

export interface DpopKey {
  readonly privateJwk: JWK;
  /** RFC 7638 SHA-256 thumbprint: the `cnf.jkt` of the tokens bound to it. */
  readonly jkt: string;
}

/** `count` fresh P-256 (ES256) or Ed25519 (EdDSA) keys with their thumbprints. */
export async function dpopKeys(count: number, alg: DpopAlg = 'ES256'): Promise<DpopKey[]> {
  const keys: DpopKey[] = [];
  for (let i = 0; i < count; i++) {
    const { privateKey, publicKey } =
      alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
    keys.push({
      privateJwk: privateKey.export({ format: 'jwk' }) as JWK,
      jkt: await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as JWK, 'sha256'),
    });
  }
  return keys;
}

/** `htu` for a route: the gateway checks proofs against its public base URL (the issuer), not the hop's address. */
export function benchHtu(path: string): string {
  return `${BENCH_ISSUER}${path}`;
}

/** `tokens` tokens bound to `keys` keys of `alg` in turn, calling `path`: a DPoP scenario's file. */
export async function dpopClients(
  key: BenchKey,
  alg: DpopAlg,
  tokens: number,
  keys: number,
  path: string,
): Promise<DpopClients> {
  const clientKeys = await dpopKeys(keys, alg);
  const minted = mintTokens(key, tokens, (i) => (clientKeys[i % keys] as DpopKey).jkt);
  return {
    alg,
    htu: benchHtu(path),
    keys: clientKeys.map((k) => k.privateJwk),
    tokens: minted.map((token, i) => ({ token, key: i % keys })),
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Signer {
  readonly key: KeyObject;
  /** The proof's encoded protected header, the same for every proof by this key. */
  readonly header: string;
}

/** Signs proofs for one scenario file, going round its tokens; the cursor persists across batches. */
export interface ProofBatcher {
  /** `count` requests, each `GET` with `Authorization: DPoP <token>` and a proof never used before. */
  batch(head: string, count: number): Buffer[];
}

export function proofBatcher(file: string): ProofBatcher {
  const clients = JSON.parse(readFileSync(file, 'utf8')) as DpopClients;
  // Imported once: a KeyObject signs far faster than a JWK parsed again for every proof.
  const signers: Signer[] = clients.keys.map((jwk) => {
    const { d: _private, ...publicJwk } = jwk;
    return {
      key: createPrivateKey({ format: 'jwk', key: jwk as JsonWebKey }),
      header: b64({ typ: 'dpop+jwt', alg: clients.alg, jwk: publicJwk }),
    };
  });
  const tokens = clients.tokens.map(({ token, key }) => ({
    token,
    signer: signers[key] as Signer,
    ath: createHash('sha256').update(token, 'ascii').digest('base64url'),
  }));
  let next = 0;
  return {
    batch(head, count) {
      const iat = Math.floor(Date.now() / 1000);
      const out: Buffer[] = [];
      for (let i = 0; i < count; i++) {
        const t = tokens[next++ % tokens.length] as (typeof tokens)[number];
        const input = `${t.signer.header}.${b64({ jti: randomUUID(), htm: 'GET', htu: clients.htu, iat, ath: t.ath })}`;
        const signature =
          clients.alg === 'ES256'
            ? sign('sha256', Buffer.from(input), { key: t.signer.key, dsaEncoding: 'ieee-p1363' })
            : sign(null, Buffer.from(input), t.signer.key);
        out.push(
          Buffer.from(
            `${head}authorization: DPoP ${t.token}\r\ndpop: ${input}.${signature.toString('base64url')}\r\n\r\n`,
            'latin1',
          ),
        );
      }
      return out;
    },
  };
}
