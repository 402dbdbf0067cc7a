import { describe, expect, it } from 'vitest';
import { timedTokenEndpoint } from './timed-endpoint.ts';

const { env, client, atMs, attemptTimes } = timedTokenEndpoint();

const INVALID_CLIENT = {
  status: 401,
  body: JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }),
};

/** What each of `calls` rejected with; fails the test if one was answered. */
async function rejections(calls: Array<Promise<unknown>>): Promise<unknown[]> {
  const settled = await Promise.allSettled(calls);
  return settled.map((result) => {
    expect(result.status).toBe('rejected');
    return (result as PromiseRejectedResult).reason;
  });
}

describe('a failed token request with no token in hand', () => {
  it.each([
    {
      answer: '401 invalid_client',
      failWith: INVALID_CLIENT,
      keptMs: 10_000,
      error: {
        name: 'TokenEndpointError',
        status: 401,
        error: 'invalid_client',
        errorDescription: 'client authentication failed',
      },
    },
    {
      answer: '400 invalid_scope',
      failWith: { status: 400, body: '{"error":"invalid_scope"}' },
      keptMs: 10_000,
      error: { name: 'TokenEndpointError', status: 400, error: 'invalid_scope' },
    },
    {
      answer: '500 server_error',
      failWith: { status: 500, body: '{"error":"server_error"}' },
      keptMs: 1000,
      error: { name: 'TokenEndpointError', status: 500, error: 'server_error' },
    },
    {
      answer: '503 without an OAuth body',
      failWith: { status: 503, body: 'down', contentType: 'text/plain' },
      keptMs: 1000,
      error: { name: 'TokenRequestError', kind: 'invalid_response', status: 503 },
    },
    {
      answer: '429 without Retry-After',
      failWith: { status: 429, body: '{"error":"temporarily_unavailable"}' },
      keptMs: 1000,
      error: { name: 'TokenEndpointError', status: 429, error: 'temporarily_unavailable' },
    },
  ])(
    'after $answer, calls in the next $keptMs ms reject at once with that error and send no token request; the first call after asks again',
    async ({ failWith, keptMs, error }) => {
      // Regression: every call sent a token request as soon as the previous one had failed.
      const c = client();
      env.server.failWith = failWith;
      const first = await c.getToken().catch((e: unknown) => e);
      expect(first).toMatchObject(error);
      for (const ms of [0, 1, keptMs / 2, keptMs - 1]) {
        atMs(ms);
        const errors = await rejections([
          ...Array.from({ length: 5 }, () => c.getToken()),
          ...Array.from({ length: 5 }, () => c.fetch(env.server.apiUrl)),
        ]);
        for (const remembered of errors) {
          expect(remembered).toMatchObject(error);
          expect(remembered).not.toBe(first);
          expect((remembered as Error).cause).toBe(first);
          expect((remembered as Error).message).toContain('remembered from the token request');
        }
      }
      expect(attemptTimes()).toEqual([0]);
      expect(env.server.apiCalls).toEqual([]);
      atMs(keptMs);
      env.server.failWith = undefined;
      expect(await c.getToken()).toBe('tok-1');
      expect(attemptTimes()).toEqual([0, keptMs / 1000]);
    },
  );

  it('says in the message how old the failure is and how long it is kept', async () => {
    const c = client();
    env.server.failWith = INVALID_CLIENT;
    await expect(c.getToken()).rejects.toThrow(
      'token endpoint refused the request: invalid_client (client authentication failed)',
    );
    atMs(2500);
    await expect(c.getToken()).rejects.toThrow(
      'token endpoint refused the request: invalid_client (client authentication failed); remembered from the token request 2.5 s ago, no new one for 7.5 s',
    );
  });

  it('keeps asking once per interval while the token endpoint keeps failing, and forgets the failure once a token lands', async () => {
    const c = client();
    env.server.failWith = { status: 500, body: '{"error":"server_error"}' };
    for (let ms = 0; ms < 5000; ms += 100) {
      atMs(ms);
      await expect(c.getToken()).rejects.toMatchObject({ error: 'server_error' });
    }
    expect(attemptTimes()).toEqual([0, 1, 2, 3, 4]);
    env.server.failWith = undefined;
    atMs(5000);
    expect(await c.getToken()).toBe('tok-1');
    expect(await c.getToken()).toBe('tok-1');
    expect(attemptTimes()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('answers a call with a live AbortSignal from the remembered failure at once, and one with an aborted signal with its reason', async () => {
    const c = client();
    env.server.failWith = INVALID_CLIENT;
    await expect(c.getToken()).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(c.fetch(env.server.apiUrl, { signal: AbortSignal.timeout(5000) })).rejects.toMatchObject({
      name: 'TokenEndpointError',
      error: 'invalid_client',
    });
    await expect(c.fetch(env.server.apiUrl, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(attemptTimes()).toEqual([0]);
  });

  it('is remembered when the token ran out while a background refresh was failing, so calls from then on do not each ask', async () => {
    const c = client({ timeoutMs: 300 });
    await c.getToken();
    env.server.hang = true;
    atMs(894_000);
    expect(await c.getToken()).toBe('tok-1');
    atMs(895_000);
    // The background request started at 894 s times out after the token ran out: no usable token is left.
    await env.attempts.settled();
    await expect(c.getToken()).rejects.toMatchObject({ name: 'TokenRequestError', kind: 'timeout' });
    atMs(895_999);
    await expect(c.getToken()).rejects.toMatchObject({ name: 'TokenRequestError', kind: 'timeout' });
    expect(attemptTimes()).toEqual([0, 894]);
  });
});

describe('a Retry-After on a 429 or 503 answer with no token in hand', () => {
  const throttled = (retryAfter: string) => ({
    status: 429,
    body: '{"error":"temporarily_unavailable"}',
    headers: { 'retry-after': retryAfter },
  });
  it.each([
    {
      answer: '429 with Retry-After: 30',
      failWith: () => throttled('30'),
      keptMs: 30_000,
      error: { name: 'TokenEndpointError', status: 429, error: 'temporarily_unavailable', retryAfterMs: 30_000 },
    },
    {
      answer: '503 without an OAuth body, with Retry-After: 20',
      failWith: () => ({
        status: 503,
        body: 'maintenance',
        contentType: 'text/plain',
        headers: { 'retry-after': '20' },
      }),
      keptMs: 20_000,
      error: { name: 'TokenRequestError', kind: 'invalid_response', status: 503, retryAfterMs: 20_000 },
    },
    {
      answer: '429 with Retry-After as an HTTP-date 45 s ahead',
      failWith: () => throttled(new Date(env.t0 + 45_000).toUTCString()),
      keptMs: 45_000,
      error: { status: 429, retryAfterMs: 45_000 },
    },
    {
      answer: '429 with Retry-After as an HTTP-date already past, kept the usual 1 s',
      failWith: () => throttled(new Date(env.t0 - 5000).toUTCString()),
      keptMs: 1000,
      error: { status: 429, retryAfterMs: 0 },
    },
    {
      answer: '429 with Retry-After: 3600, capped at 60 s',
      failWith: () => throttled('3600'),
      keptMs: 60_000,
      error: { status: 429, retryAfterMs: 3_600_000 },
    },
    {
      answer: '429 with Retry-After: 0, kept the usual 1 s',
      failWith: () => throttled('0'),
      keptMs: 1000,
      error: { status: 429, retryAfterMs: 0 },
    },
    {
      answer: '429 with a Retry-After that is no delay, kept the usual 1 s',
      failWith: () => throttled('soon'),
      keptMs: 1000,
      error: { status: 429, retryAfterMs: undefined },
    },
    {
      answer: '500 with Retry-After: 30, which only 429 and 503 carry',
      failWith: () => ({ status: 500, body: '{"error":"server_error"}', headers: { 'retry-after': '30' } }),
      keptMs: 1000,
      error: { status: 500, retryAfterMs: undefined },
    },
  ])(
    'after $answer, calls reject at once for $keptMs ms and the first call after asks again',
    async ({ failWith, keptMs, error }) => {
      const c = client();
      env.server.failWith = failWith();
      await expect(c.getToken()).rejects.toMatchObject(error);
      atMs(keptMs - 1);
      await expect(c.fetch(env.server.apiUrl)).rejects.toMatchObject(error);
      expect(attemptTimes()).toEqual([0]);
      atMs(keptMs);
      env.server.failWith = undefined;
      expect(await c.getToken()).toBe('tok-1');
      expect(attemptTimes()).toEqual([0, keptMs / 1000]);
    },
  );
});

describe('the retry after a 1030 or a revoked 1024', () => {
  it.each([
    { answer: '500 server_error', failWith: { status: 500, body: '{"error":"server_error"}' } },
    { answer: '401 invalid_client', failWith: INVALID_CLIENT },
    {
      answer: '429 with Retry-After: 60',
      failWith: { status: 429, body: '{"error":"temporarily_unavailable"}', headers: { 'retry-after': '60' } },
    },
  ])(
    'asks for a fresh token at once although a background refresh was answered $answer half a second before',
    async ({ failWith }) => {
      const c = client();
      await c.getToken();
      env.server.failWith = failWith;
      atMs(840_000);
      expect(await c.getToken()).toBe('tok-1');
      await env.attempts.settled();
      env.server.failWith = undefined;
      env.server.expired = new Set(['tok-1']);
      atMs(840_500);
      const res = await c.fetch(env.server.apiUrl);
      expect(res.status).toBe(200);
      expect(env.server.apiCalls).toEqual(['tok-1', 'tok-2']);
      expect(attemptTimes()).toEqual([0, 840, 840.5]);
    },
  );

  it('asks once when the client was disabled, and calls in the next 10 s get invalid_client without a token request, even after invalidate()', async () => {
    const c = client();
    await c.getToken();
    // Disabling a client revokes its tokens and refuses its token requests.
    env.server.revoked = new Set(['tok-1']);
    env.server.failWith = INVALID_CLIENT;
    atMs(100_000);
    await expect(c.fetch(env.server.apiUrl)).rejects.toMatchObject({
      name: 'TokenEndpointError',
      error: 'invalid_client',
    });
    expect(env.server.apiCalls).toEqual(['tok-1']);
    for (let ms = 100_000; ms < 110_000; ms += 500) {
      atMs(ms);
      await expect(c.fetch(env.server.apiUrl)).rejects.toMatchObject({
        name: 'TokenEndpointError',
        error: 'invalid_client',
      });
    }
    c.invalidate();
    await expect(c.getToken()).rejects.toMatchObject({ name: 'TokenEndpointError', error: 'invalid_client' });
    expect(env.server.apiCalls).toEqual(['tok-1']);
    expect(attemptTimes()).toEqual([0, 100]);
    // Enabled again: the first call after the 10 s gets a token.
    env.server.failWith = undefined;
    atMs(110_000);
    expect((await c.fetch(env.server.apiUrl)).status).toBe(200);
    expect(env.server.apiCalls).toEqual(['tok-1', 'tok-2']);
    expect(attemptTimes()).toEqual([0, 100, 110]);
  });
});
