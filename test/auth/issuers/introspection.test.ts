import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIntrospector, type IntrospectionOptions } from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';
import { readIntrospection } from '../../../src/auth/issuers/introspection-response.ts';

const ISSUER = 'https://idp.test';
const AUDIENCE = 'https://api.test';

/** A loopback introspection endpoint whose answer, status and delay each test sets. */
let server: Server;
let url: string;
let answer: (token: string) => { status: number; body: unknown };
let delayMs = 0;
let calls: { token: string; authorization: string | undefined }[] = [];
let running = 0;
let mostAtOnce = 0;

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

// A server per test: a call the previous test abandoned (its timeout) may still be on its way
// and must reach that test's server, never count in this one's.
beforeEach(async () => {
  calls = [];
  running = 0;
  delayMs = 0;
  mostAtOnce = 0;
  answer = () => ({ status: 200, body: { active: false } });
  server = createServer(async (req, res) => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    try {
      const token = new URLSearchParams(await bodyOf(req)).get('token') ?? '';
      calls.push({ token, authorization: req.headers.authorization });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const { status, body } = answer(token);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } catch {
      res.destroy();
    } finally {
      running -= 1;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function introspector(clock = createFakeClock(Date.now()), options: Partial<IntrospectionOptions> = {}) {
  return createIntrospector({
    url,
    issuer: ISSUER,
    audience: AUDIENCE,
    clientId: 'gateway one',
    clientSecret: 's3cret:+/',
    cacheMaxSec: 60,
    negativeCacheSec: 5,
    maxConcurrent: 4,
    timeoutMs: 2_000,
    clock,
    ...options,
  });
}

describe('RFC 7662 introspection of external tokens', () => {
  it('authenticates as its client (form-encoded, HTTP Basic) and answers a cached active token without a call', async () => {
    const clock = createFakeClock(Date.now());
    const exp = Math.floor(clock.now() / 1000) + 600;
    answer = () => ({ status: 200, body: { active: true, iss: ISSUER, aud: AUDIENCE, client_id: 'c', exp } });
    const subject = introspector(clock);
    expect(await subject.introspect('tok-1')).toMatchObject({ active: true, claims: { client_id: 'c' } });
    const again = subject.introspect('tok-1');
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ active: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.authorization).toBe(`Basic ${Buffer.from('gateway+one:s3cret%3A%2B%2F').toString('base64')}`);
  });

  it('keeps an active answer no longer than the ceiling, nor past the token’s exp', async () => {
    const clock = createFakeClock(Date.now());
    let exp = Math.floor(clock.now() / 1000) + 600;
    answer = () => ({ status: 200, body: { active: true, exp } });
    const subject = introspector(clock);
    await subject.introspect('long');
    clock.advanceSec(61);
    const asked = subject.introspect('long');
    expect(asked).toBeInstanceOf(Promise);
    await asked;
    exp = Math.floor(clock.now() / 1000) + 10;
    await subject.introspect('short');
    clock.advanceSec(11);
    const askedShort = subject.introspect('short');
    expect(askedShort).toBeInstanceOf(Promise);
    await askedShort;
  });

  it('remembers an inactive answer briefly, then asks again', async () => {
    const clock = createFakeClock(Date.now());
    const subject = introspector(clock);
    expect(await subject.introspect('dead')).toMatchObject({ active: false });
    expect(subject.introspect('dead')).toMatchObject({ active: false });
    clock.advanceSec(6);
    await subject.introspect('dead');
    expect(calls).toHaveLength(2);
  });

  it('answers unavailable on an error status, junk, or a timeout, and caches none of them', async () => {
    const subject = introspector();
    answer = () => ({ status: 500, body: { error: 'server_error' } });
    expect(await subject.introspect('t')).toMatchObject({
      active: 'unavailable',
      detail: 'introspection answered 500',
    });
    answer = () => ({ status: 200, body: ['active'] });
    expect(await subject.introspect('t')).toMatchObject({ active: 'unavailable' });
    answer = () => ({ status: 200, body: { active: true } });
    delayMs = 1_500;
    const impatient = introspector(undefined, { timeoutMs: 100 });
    expect(calls).toHaveLength(2);
    expect(await impatient.introspect('t')).toMatchObject({
      active: 'unavailable',
      detail: 'introspection failed: timeout',
    });
    // Nothing of the three was kept: the next question asks again and gets the answer.
    delayMs = 0;
    expect(await impatient.introspect('t')).toMatchObject({ active: true });
    expect(await subject.introspect('t')).toMatchObject({ active: true });
  });

  it('makes one call per token however many ask at once, and at most maxConcurrent calls in all', async () => {
    answer = () => ({ status: 200, body: { active: false } });
    delayMs = 50;
    const subject = introspector(undefined, { maxConcurrent: 2 });
    await Promise.all([...Array(5).keys()].flatMap((i) => [subject.introspect(`t${i}`), subject.introspect(`t${i}`)]));
    expect(calls).toHaveLength(5);
    expect(mostAtOnce).toBe(2);
  });

  it('refuses at once past the queue bound rather than piling up', async () => {
    answer = () => ({ status: 200, body: { active: false } });
    delayMs = 100;
    const subject = introspector(undefined, { maxConcurrent: 1, maxQueued: 1 });
    const results = await Promise.all([subject.introspect('a'), subject.introspect('b'), subject.introspect('c')]);
    expect(results.map((r) => r.active)).toEqual([false, false, 'unavailable']);
  });

  it('treats an answer about another issuer’s or another audience’s token as inactive', () => {
    expect(readIntrospection({ active: true, iss: 'https://evil.test' }, ISSUER, AUDIENCE)).toMatchObject({
      active: false,
    });
    expect(readIntrospection({ active: true, aud: ['x'] }, ISSUER, AUDIENCE)).toMatchObject({ active: false });
    expect(readIntrospection({ active: true, token_type: 'refresh_token' }, ISSUER, AUDIENCE)).toMatchObject({
      active: false,
    });
    expect(readIntrospection({ active: 'true' }, ISSUER, AUDIENCE)).toBeUndefined();
  });

  it('never throws on any answer, and calls active only `active: true` of this issuer', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const read = readIntrospection(body, ISSUER, AUDIENCE);
        if (read?.active === true) expect((body as { active: unknown }).active).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  }, 60_000);
});

describe('an opaque token when the introspection endpoint fails', () => {
  it('is refused with 503 1057 (fail-closed), even with failOpen, and never forwarded', async () => {
    const { authFailureResponse, createExternalVerifier, createIssuerDispatch, createVerifier } = await import('#auth');
    const { staticKeys, simpleRevocations, createTestKey, TEST_ISSUER, TEST_AUDIENCE } = await import(
      '#test/tokens.ts'
    );
    answer = () => ({ status: 503, body: { error: 'temporarily_unavailable' } });
    const key = await createTestKey('RS256');
    const own = createVerifier({
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      algorithms: ['RS256'],
      keys: staticKeys(key),
      revocations: simpleRevocations(),
    });
    const partner = createExternalVerifier({
      name: 'partner',
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['RS256'],
      clockToleranceSec: 5,
      maxTokenLifetimeSec: 3_600,
      tokenTypes: ['at+jwt'],
      claims: { scope: { claim: 'scope', format: 'string', separator: ' ' }, client: 'client_id' },
      keys: staticKeys(key),
      introspection: { introspector: introspector(), tokens: 'opaque', failOpen: true, cacheMaxSec: 60 },
    });
    const dispatch = createIssuerDispatch({
      own: { name: 'tokengate', issuer: TEST_ISSUER, verifier: own },
      external: [partner],
    });
    const decision = await dispatch.forIssuers(['tokengate', 'partner'])('Bearer opaque-token_1', {
      scopes: [],
      match: 'any',
    });
    expect(decision).toMatchObject({ ok: false, kind: 'introspection_unavailable' });
    if (decision.ok) return;
    const reply = authFailureResponse(decision);
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({
      message: 'Token introspection is unavailable; try again shortly',
      error_code: '1057',
      success: false,
    });
    expect(reply.headers['www-authenticate']).toBe('Bearer realm="tokengate"');
  });
});
