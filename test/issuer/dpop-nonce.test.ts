import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DPOP_NONCE_SLOT_SEC } from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { type Harness, startHarness } from './harness.ts';

const SECRET = 'issuer-nonce-secret-for-tests';
const clock = createFakeClock(Date.now() - (Date.now() % 60_000));
let required: Harness;
let sibling: Harness;
let stranger: Harness;
let supported: Harness;
let key: DpopKey;
let id: string;
let secret: string;

beforeAll(async () => {
  required = await startHarness({ clock, config: { dpopNonce: { mode: 'required', secret: SECRET } } });
  const same = { issuer: required.url, audience: required.url };
  const on = (mode: 'supported' | 'required', nonceSecret: string) => ({
    clock,
    store: required.store,
    config: { ...same, dpopNonce: { mode, secret: nonceSecret } },
  });
  sibling = await startHarness(on('required', SECRET));
  stranger = await startHarness(on('required', 'another-nonce-secret-0123'));
  supported = await startHarness(on('supported', SECRET));
  key = await dpopKey('ES256');
  ({
    client: { clientId: id },
    secret,
  } = await required.client(['email']));
});
afterAll(async () => {
  for (const h of [supported, stranger, sibling]) await h.close();
  await required.close();
});

/** A token request with a fresh proof for the token endpoint (of `required`, every harness's issuer). */
async function tokenRequest(nonce: string | undefined, at = required.url) {
  const proof = await dpopProof(key, 'POST', `${required.url}/oauth/token`, {
    nowSec: clock.nowSec(),
    claims: { nonce },
  });
  return answerOf(await send(proof, at));
}

/** One token request carrying `proof`, to the issuer at `at`. */
function send(proof: string, at: string): Promise<Response> {
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret });
  const headers = { 'content-type': 'application/x-www-form-urlencoded', dpop: proof };
  return fetch(`${at}/oauth/token`, { method: 'POST', headers, body });
}

async function answerOf(res: Response) {
  return {
    status: res.status,
    nonce: res.headers.get('dpop-nonce'),
    json: (await res.json()) as Record<string, unknown>,
  };
}

function expectUseNonce(res: Awaited<ReturnType<typeof answerOf>>) {
  expect(res.status).toBe(400);
  expect(res.json).toEqual({ error: 'use_dpop_nonce', error_description: expect.any(String) });
  expect(res.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
}

describe('server nonces at the token endpoint (RFC 9449 §8)', () => {
  it('answers a proof without a nonce 400 use_dpop_nonce with a DPoP-Nonce, and takes the retry with it', async () => {
    const first = await tokenRequest(undefined);
    expectUseNonce(first);
    expect(required.logs()).toContain('nonce missing');
    const retry = await tokenRequest(first.nonce ?? undefined);
    expect(retry.status).toBe(200);
    expect(retry.json['token_type']).toBe('DPoP');
    expect(retry.nonce).toBe(first.nonce);
  });

  it('refuses a nonce older than two slots, and answers with a current one', async () => {
    const old = (await tokenRequest(undefined)).nonce ?? undefined;
    clock.advanceSec(DPOP_NONCE_SLOT_SEC);
    expect((await tokenRequest(old)).status).toBe(200);
    clock.advanceSec(DPOP_NONCE_SLOT_SEC);
    const stale = await tokenRequest(old);
    expectUseNonce(stale);
    expect(stale.nonce).not.toBe(old);
    expect((await tokenRequest(stale.nonce ?? undefined)).status).toBe(200);
  });

  it('refuses a forged nonce', async () => {
    expectUseNonce(await tokenRequest('A'.repeat(43)));
    expectUseNonce(await tokenRequest('not-a-nonce'));
  });

  it('accepts a nonce from another replica sharing the secret, and not from one with another secret', async () => {
    const nonce = (await tokenRequest(undefined)).nonce ?? undefined;
    expect((await tokenRequest(nonce, sibling.url)).status).toBe(200);
    expectUseNonce(await tokenRequest(nonce, stranger.url));
  });

  it('leaves the jti of a proof refused for its nonce unused: a replica that takes the nonce takes the proof', async () => {
    const nonce = (await tokenRequest(undefined)).nonce ?? undefined;
    const proof = await dpopProof(key, 'POST', `${required.url}/oauth/token`, {
      nowSec: clock.nowSec(),
      claims: { nonce },
    });
    expectUseNonce(await answerOf(await send(proof, stranger.url)));
    const res = await send(proof, sibling.url);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it('accepts a proof without a nonce while nonces are only supported, and hands one out', async () => {
    const res = await tokenRequest(undefined, supported.url);
    expect(res.status).toBe(200);
    expect(res.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expectUseNonce(await tokenRequest('A'.repeat(43), supported.url));
  });
});
