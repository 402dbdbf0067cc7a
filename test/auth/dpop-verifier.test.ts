import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authFailureResponse,
  createDpopNonces,
  createMemoryReplayCache,
  type DpopReplayCache,
  type Verifier,
} from '#auth';
import { createLogger } from '#common';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { createRedisReplayCache } from '../../src/auth/dpop/redis-replay-cache.ts';
import { ANY, type VerifierFixture, verifierFixture } from './verifier-setup.ts';

const URL_ = 'https://api.example.com/api/phone/v1/verification';
const htu = (request: { url?: string | undefined }) => `https://api.example.com${(request.url ?? '').split('?')[0]}`;
let f: VerifierFixture;
let key: DpopKey;
let token: string;

beforeAll(async () => {
  f = await verifierFixture({ dpop: { htu } });
  key = await dpopKey('ES256');
  token = await f.kit.goodToken({ claims: { cnf: { jkt: key.jkt } } });
});

const request = (proof: string | undefined, method = 'GET', url = '/api/phone/v1/verification?phone_number=1') => ({
  method,
  url,
  headers: proof === undefined ? {} : { dpop: proof },
});
const proofNow = (options: Parameters<typeof dpopProof>[3] = {}, k = key, htm = 'GET', at = URL_) =>
  dpopProof(k, htm, at, { token, nowSec: f.clock.nowSec(), ...options });
const dpopCall = async (v: Verifier, proof: string | undefined, value = token, method?: string) =>
  v.authorize(`DPoP ${value}`, ANY, request(proof, method));

describe('Authorization: DPoP at the verifier', () => {
  it('accepts a bound token with a proof by its key, for this method and URL', async () => {
    expect(await dpopCall(f.verifier, await proofNow())).toMatchObject({ ok: true, token: { jkt: key.jkt } });
  });

  const refusals: Array<[string, () => Promise<string | undefined>, string]> = [
    ['no proof', async () => undefined, 'no DPoP proof'],
    ['a proof for another method', () => proofNow({}, key, 'POST'), 'htm'],
    [
      'a proof for another URL',
      () => proofNow({}, key, 'GET', 'https://api.example.com/api/email/v1/verification'),
      'htu',
    ],
    ['a proof without ath', () => proofNow({ claims: { ath: undefined } }), 'ath'],
    ['a proof for another token', () => proofNow({ token: 'another' }), 'ath'],
    ['a proof too old', () => proofNow({ nowSec: f.clock.nowSec() - 120 }), 'iat'],
    ['a proof by another key', async () => proofNow({}, await dpopKey('ES256')), 'cnf.jkt'],
  ];
  for (const [what, make, detail] of refusals) {
    it(`refuses ${what} with invalid_dpop_proof (1027) and a DPoP challenge`, async () => {
      const decision = await dpopCall(f.verifier, await make());
      expect(decision).toMatchObject({ ok: false, kind: 'invalid_dpop_proof', dpop: true });
      expect(decision.ok ? '' : decision.detail).toContain(detail);
      if (decision.ok) return;
      const res = authFailureResponse(decision);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error_code: '1027', message: 'Invalid DPoP proof', success: false });
      expect(res.headers['www-authenticate']).toMatch(
        /^DPoP realm="tokengate", algs="RS256 PS256 ES256 EdDSA", error="invalid_dpop_proof"/,
      );
    });
  }

  it('refuses a replayed proof', async () => {
    const proof = await proofNow();
    expect((await dpopCall(f.verifier, proof)).ok).toBe(true);
    expect(await dpopCall(f.verifier, proof)).toMatchObject({
      kind: 'invalid_dpop_proof',
      detail: 'proof replayed (jti seen)',
    });
  });

  it('refuses an unbound token sent as DPoP with invalid_token and a DPoP challenge', async () => {
    const unbound = await f.kit.goodToken();
    const decision = await f.verifier.authorize(`DPoP ${unbound}`, ANY, request(await proofNow({ token: unbound })));
    expect(decision).toMatchObject({ kind: 'invalid_token', detail: 'unbound token presented as DPoP', dpop: true });
    if (!decision.ok)
      expect(authFailureResponse(decision).headers['www-authenticate']).toMatch(/^DPoP .*error="invalid_token"/);
  });

  it('refuses the bound token presented as Bearer, with or without a proof', async () => {
    const decision = f.verifier.authorize(`Bearer ${token}`, ANY, request(await proofNow()));
    expect(decision).toMatchObject({ kind: 'invalid_token', detail: 'DPoP-bound token presented as Bearer' });
  });

  it('treats the DPoP scheme as no credentials when the host did not enable DPoP', async () => {
    const plain = await verifierFixture();
    expect(plain.verifier.authorize(`DPoP ${token}`, ANY, request(await proofNow()))).toMatchObject({
      kind: 'credentials_missing',
    });
  });
});

describe('server nonces at the verifier (RFC 9449 §9)', () => {
  let g: VerifierFixture;
  let bound: string;
  beforeAll(async () => {
    const nonces = createDpopNonces({ mode: 'required', secret: 'nonce-secret-for-tests', now: () => g.clock.now() });
    g = await verifierFixture({ dpop: { htu, nonces } }, f.kit.key);
    bound = await g.kit.goodToken({ claims: { cnf: { jkt: key.jkt } } });
  });
  const proofWith = (nonce: string | undefined) =>
    dpopProof(key, 'GET', URL_, { token: bound, nowSec: g.clock.nowSec(), claims: { nonce } });
  const call = async (proof: string) => g.verifier.authorize(`DPoP ${bound}`, ANY, request(proof));

  it('answers a proof without a nonce 401 1028 with error="use_dpop_nonce" and a DPoP-Nonce', async () => {
    const decision = await call(await proofWith(undefined));
    expect(decision).toMatchObject({ ok: false, kind: 'use_dpop_nonce', dpop: true, dpopNonce: expect.any(String) });
    if (decision.ok) return;
    const res = authFailureResponse(decision);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error_code: '1028', success: false });
    expect(res.headers['www-authenticate']).toMatch(/^DPoP realm="tokengate", algs="[^"]+", error="use_dpop_nonce"/);
    expect(res.headers['dpop-nonce']).toBe(decision.dpopNonce);
  });

  it('accepts the retry with that nonce and hands out the nonce again', async () => {
    const refused = await call(await proofWith(undefined));
    const nonce = refused.ok ? undefined : refused.dpopNonce;
    const decision = await call(await proofWith(nonce));
    expect(decision).toMatchObject({ ok: true, dpopNonce: nonce });
  });

  it('leaves the jti of a proof refused for its nonce unused: a host that takes the nonce takes the proof', async () => {
    const replay = createMemoryReplayCache(() => g.clock.now());
    const nonces = createDpopNonces({ mode: 'required', secret: 'another-nonce-secret', now: () => g.clock.now() });
    const [stranger, sibling] = await Promise.all([
      verifierFixture({ dpop: { htu, replay, nonces } }, f.kit.key),
      verifierFixture({ dpop: { htu, replay } }, f.kit.key),
    ]);
    const refused = await call(await proofWith(undefined));
    const proof = await proofWith(refused.ok ? undefined : refused.dpopNonce);
    const sent = request(proof);
    expect(await stranger.verifier.authorize(`DPoP ${bound}`, ANY, sent)).toMatchObject({ kind: 'use_dpop_nonce' });
    expect(await sibling.verifier.authorize(`DPoP ${bound}`, ANY, sent)).toMatchObject({ ok: true });
    expect(await sibling.verifier.authorize(`DPoP ${bound}`, ANY, sent)).toMatchObject({
      kind: 'invalid_dpop_proof',
    });
  });

  it('sends a fresh nonce with every other DPoP refusal too', async () => {
    const decision = await g.verifier.authorize(`DPoP ${bound}`, ANY, request(undefined));
    expect(decision).toMatchObject({ kind: 'invalid_dpop_proof', dpopNonce: expect.any(String) });
  });
});

// Generous: these tests are about sharing, not timeouts, and a busy CI machine answers slowly.
const REDIS_TIMEOUT_MS = 5_000;

describe('the replay cache shared through Redis', () => {
  const caches: Array<DpopReplayCache & { close(): void }> = [];
  afterAll(() => {
    for (const cache of caches) cache.close();
  });

  it('lets only one of two gateways accept a proof', async () => {
    const prefix = `tg-test-${randomBytes(4).toString('hex')}:`;
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } });
    const now = () => f.clock.now();
    for (let i = 0; i < 2; i++)
      caches.push(createRedisReplayCache('redis://127.0.0.1:6379', prefix, REDIS_TIMEOUT_MS, now, log));
    const [one, two] = await Promise.all(
      caches.map(async (replay) => (await verifierFixture({ dpop: { htu, replay } }, f.kit.key)).verifier),
    );
    const proof = await proofNow();
    // The whole decision and the caches' warnings, so that a refusal says why (one CI run refused
    // the first call, with nothing to tell whether Redis had answered).
    const first = await dpopCall(one as Verifier, proof);
    expect({ first, lines }).toMatchObject({ first: { ok: true }, lines: [] });
    expect(await dpopCall(two as Verifier, proof)).toMatchObject({ kind: 'invalid_dpop_proof' });
    expect(await dpopCall(two as Verifier, await proofNow())).toMatchObject({ ok: true });
    expect(lines).toEqual([]);
  });

  it('records a proof that arrives while the first connection to Redis is still being made', async () => {
    const replay = createRedisReplayCache(
      'redis://127.0.0.1:6379',
      `tg-test-${randomBytes(4).toString('hex')}:`,
      REDIS_TIMEOUT_MS,
      () => f.clock.now(),
      createLogger({ level: 'silent' }),
    );
    caches.push(replay);
    // No await before the claim: the connection is still being made.
    expect(await replay.claim('first', f.clock.now() + 60_000)).toBe(true);
    expect(await replay.claim('first', f.clock.now() + 60_000)).toBe(false);
  });

  it('refuses proofs while Redis does not answer (fails closed)', async () => {
    const log = createLogger({ level: 'silent' });
    const dead = createRedisReplayCache('redis://127.0.0.1:1', 'x:', 100, () => f.clock.now(), log);
    caches.push(dead);
    expect(await dead.claim('k', f.clock.now() + 60_000)).toBe(false);
  });
});
