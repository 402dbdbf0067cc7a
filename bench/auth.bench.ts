/**
 * Verifications per second of the auth plugin, measured side by side in one run (the machine is
 * shared and noisy, so only ratios within a run mean much): (a) one token reused, (b) 10,000
 * tokens cycled, (c) every token new, next to raw crypto.verify RS256 and jose jwtVerify.
 * Also compares keying the caches by the token string against a SHA-256 of it.
 */
import { createHash, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { jwtVerify } from 'jose';
import { createVerifier, type RouteRequirement } from '#auth';

const ISSUER = 'http://issuer.bench';
const AUDIENCE = 'http://api.bench';
const ANY: RouteRequirement = { scopes: ['address'], match: 'any' };
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const header = b64({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' });
function mint(): string {
  const iat = Math.floor(Date.now() / 1000);
  const claims = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'c1',
    client_id: 'c1',
    project_id: 'p1',
    scope: 'address phone',
    jti: randomUUID(),
    iat,
    exp: iat + 900,
  };
  const input = `${header}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

/** Accumulated time and count of one case across interleaved rounds (fair under a noisy machine). */
interface Case {
  ms: number;
  n: number;
}

async function timed(c: Case, count: number, step: (i: number) => unknown, offset = 0): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const out = step(offset + i);
    if (out instanceof Promise) await out;
  }
  c.ms += performance.now() - start;
  c.n += count;
}

const perSec = (c: Case): number => c.n / (c.ms / 1000);

function verifier(maxEntries?: number) {
  return createVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: ['RS256'],
    keys: { get: (kid) => (kid === 'k1' ? publicKey : undefined), ready: () => true },
    revocations: { isRevoked: () => false, usable: () => true },
    ...(maxEntries !== undefined ? { tokenCache: { maxEntries } } : {}),
  });
}

function check(decision: unknown): void {
  if (!(decision as { ok: boolean }).ok) throw new Error('bench token refused');
}

const input0 = Buffer.alloc(0);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(10);

export default async function bench(): Promise<void> {
  const ROUNDS = 40;
  const CHUNK = 500;
  const tokens = Array.from({ length: ROUNDS * CHUNK }, mint).map((t) => `Bearer ${t}`);
  const parts = tokens.map((t) => {
    const raw = t.slice(7);
    const dot = raw.lastIndexOf('.');
    return { input: Buffer.from(raw.slice(0, dot)), signature: Buffer.from(raw.slice(dot + 1), 'base64url') };
  });
  const one = tokens[0] ?? '';
  const same = verifier();
  const cycled = verifier();
  // Twice: the verified-token cache admits a token on its second sighting (src/auth/admission.ts).
  for (let pass = 0; pass < 2; pass++) for (let i = 0; i < 10_000; i++) check(cycled.authorize(tokens[i] ?? '', ANY));
  const fresh = verifier();
  const byString = new Map(tokens.slice(0, 10_000).map((t) => [t.slice(7), 1]));
  const sha = (t: string): string => createHash('sha256').update(t.slice(7)).digest('base64url');
  const byHash = new Map(tokens.slice(0, 10_000).map((t) => [sha(t), 1]));
  const joseOptions = { algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE, typ: 'at+jwt' };
  const c = {
    crypto: { ms: 0, n: 0 },
    jose: { ms: 0, n: 0 },
    a: { ms: 0, n: 0 },
    b: { ms: 0, n: 0 },
    new: { ms: 0, n: 0 },
    str: { ms: 0, n: 0 },
    hash: { ms: 0, n: 0 },
  };

  for (let round = 0; round < ROUNDS; round++) {
    const base = round * CHUNK;
    await timed(
      c.crypto,
      CHUNK,
      (i) => verify('sha256', parts[i]?.input ?? input0, publicKey, parts[i]?.signature ?? input0),
      base,
    );
    await timed(c.jose, CHUNK / 5, (i) => jwtVerify((tokens[i] ?? '').slice(7), publicKey, joseOptions), base);
    await timed(c.a, CHUNK * 10, () => check(same.authorize(one, ANY)));
    await timed(c.b, CHUNK * 10, (i) => check(cycled.authorize(tokens[i % 10_000] ?? '', ANY)), base * 10);
    await timed(c.new, CHUNK, (i) => check(fresh.authorize(tokens[i] ?? '', ANY)), base);
    await timed(c.str, CHUNK * 10, (i) => byString.get((tokens[i % 10_000] ?? '').slice(7)), base);
    await timed(c.hash, CHUNK * 10, (i) => byHash.get(sha(tokens[i % 10_000] ?? '')), base);
  }

  const crypto = perSec(c.crypto);
  const line = (name: string, r: number, extra = ''): void =>
    console.log(`  ${name.padEnd(34)}${fmt(r)}   ${(r / crypto).toFixed(2)}x crypto${extra}`);
  console.log(`verifications/s (one core, RS256 2048-bit, ${ROUNDS} interleaved rounds)`);
  console.log(`  ${'raw crypto.verify RS256'.padEnd(34)}${fmt(crypto)}`);
  line('jose jwtVerify', perSec(c.jose));
  line('(a) verifier, same token', perSec(c.a));
  line('(b) verifier, 10,000 tokens cycled', perSec(c.b));
  line('(c) verifier, every token new', perSec(c.new), `, ${(perSec(c.new) / perSec(c.jose)).toFixed(2)}x jose`);
  console.log('cache key lookups/s (10,000 entries)');
  console.log(`  ${'token string as key'.padEnd(34)}${fmt(perSec(c.str))}`);
  console.log(
    `  ${'sha256(token) as key'.padEnd(34)}${fmt(perSec(c.hash))}   ${(perSec(c.str) / perSec(c.hash)).toFixed(1)}x slower`,
  );
}
