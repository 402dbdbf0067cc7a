import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DPOP_NONCE_SLOT_SEC } from '#auth';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { TEST_ISSUER } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const PATH = '/api/au/address/autocomplete';
const SECRET = 'gateway-nonce-secret-for-tests';
const clock = createFakeClock(Date.now() - (Date.now() % 60_000));
let a: Harness;
let b: Harness;
let stranger: Harness;
let supported: Harness;
let key: DpopKey;

const gateway = (mode: 'supported' | 'required', secret = SECRET) =>
  startHarness(import.meta.dirname, { clock, env: { NONCE_MODE: mode, DPOP_NONCE_SECRET: secret } });

beforeAll(async () => {
  [a, b, stranger, supported] = await Promise.all([
    gateway('required'),
    gateway('required'),
    gateway('required', 'another-gateway-nonce-secret'),
    gateway('supported'),
  ]);
  key = await dpopKey('ES256');
}, 60_000);
afterAll(async () => {
  await Promise.all([a, b, stranger, supported].map((h) => h?.close()));
});

interface Reply {
  status: number;
  nonce: string | null;
  challenge: string | null;
  body: Record<string, unknown>;
}

/** A DPoP call through gateway `h` with a token bound to `key` and a fresh proof carrying `nonce`. */
async function call(h: Harness, nonce: string | null | undefined): Promise<Reply> {
  const token = await h.kit.tokenWithScopes(['address'], { claims: { cnf: { jkt: key.jkt } } });
  const proof = await dpopProof(key, 'GET', `${TEST_ISSUER}${PATH}`, {
    token,
    nowSec: clock.nowSec(),
    claims: { nonce: nonce ?? undefined },
  });
  const res = await h.fetch(`${PATH}?q=1`, { headers: { authorization: `DPoP ${token}`, dpop: proof } });
  return {
    status: res.status,
    nonce: res.headers.get('dpop-nonce'),
    challenge: res.headers.get('www-authenticate'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

function expectUseNonce(reply: Reply) {
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({
    completions: [],
    message: 'DPoP nonce required: sign a new proof with the DPoP-Nonce value',
    error_code: '1028',
    success: false,
  });
  expect(reply.challenge).toMatch(/^DPoP realm="tokengate", algs="[^"]+", error="use_dpop_nonce"/);
  expect(reply.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
}

describe('server DPoP nonces at the gateway (RFC 9449 §9)', () => {
  it('answers a proof without a nonce 401 1028 with a DPoP-Nonce, and forwards the retry with it', async () => {
    const seen = a.upstream.seen.length;
    const first = await call(a, undefined);
    expectUseNonce(first);
    expect(a.upstream.seen.length).toBe(seen);
    const retry = await call(a, first.nonce);
    expect(retry.status).toBe(200);
    expect(retry.nonce).toBe(first.nonce);
  });

  it('refuses a nonce older than two slots, with a current one to use instead', async () => {
    const old = (await call(a, undefined)).nonce;
    clock.advanceSec(DPOP_NONCE_SLOT_SEC);
    const previous = await call(a, old);
    expect(previous.status).toBe(200);
    expect(previous.nonce).not.toBe(old);
    clock.advanceSec(DPOP_NONCE_SLOT_SEC);
    const stale = await call(a, old);
    expectUseNonce(stale);
    expect((await call(a, stale.nonce)).status).toBe(200);
  });

  it('refuses a forged nonce', async () => {
    expectUseNonce(await call(a, 'A'.repeat(43)));
    expectUseNonce(await call(a, 'x'.repeat(1000)));
  });

  it('accepts a nonce of another gateway sharing the secret, and not of one with another secret', async () => {
    const nonce = (await call(a, undefined)).nonce;
    expect((await call(b, nonce)).status).toBe(200);
    expectUseNonce(await call(stranger, nonce));
  });

  it('forwards a proof without a nonce while nonces are only supported, and hands one out', async () => {
    const reply = await call(supported, undefined);
    expect(reply.status).toBe(200);
    expect(reply.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expectUseNonce(await call(supported, 'A'.repeat(43)));
  });
});
