import { describe, expect, it } from 'vitest';
import { timedTokenEndpoint } from './timed-endpoint.ts';

const { env, client, atMs, attemptTimes } = timedTokenEndpoint();

/** `'waited'` when `call` has not settled within a second (the token endpoint held it). */
function unlessItWaits<T>(call: Promise<T>): Promise<T | 'waited'> {
  return Promise.race([call, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 1000).unref())]);
}

async function bearerSeen(response: Response): Promise<unknown> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: unknown }).token;
}

describe('background refresh ahead of expiry', () => {
  it.each([
    { margin: 'the default 60 s margin', expiresIn: 900, refreshMarginSec: undefined, refreshAtSec: 840 },
    { margin: 'a 120 s margin', expiresIn: 900, refreshMarginSec: 120, refreshAtSec: 780 },
    {
      margin: 'the margin capped at half of a 60 s lifetime',
      expiresIn: 60,
      refreshMarginSec: undefined,
      refreshAtSec: 30,
    },
  ])(
    'starts one background refresh at $refreshAtSec s with $margin, and calls keep the current token until it lands',
    async ({ expiresIn, refreshMarginSec, refreshAtSec }) => {
      env.server.expiresIn = expiresIn;
      const c = client(refreshMarginSec === undefined ? {} : { refreshMarginSec });
      expect(await c.getToken()).toBe('tok-1');
      atMs(refreshAtSec * 1000 - 1);
      expect(await c.getToken()).toBe('tok-1');
      await env.attempts.settled();
      expect(attemptTimes()).toEqual([0]);
      atMs(refreshAtSec * 1000);
      expect(await c.getToken()).toBe('tok-1');
      expect(attemptTimes()).toEqual([0, refreshAtSec]);
      await env.attempts.settled();
      expect(await c.getToken()).toBe('tok-2');
      expect(attemptTimes()).toEqual([0, refreshAtSec]);
    },
  );

  it('answers calls inside the margin at once while the token endpoint has not answered, with one token request for all of them', async () => {
    // Regression: every call in the last 60 s before expiry waited for the token request (up to timeoutMs).
    const c = client({ timeoutMs: 5000 });
    await c.getToken();
    env.server.hang = true;
    atMs(840_000);
    const first = await unlessItWaits(c.fetch(env.server.apiUrl));
    expect(first).not.toBe('waited');
    expect(await bearerSeen(first as Response)).toBe('tok-1');
    const more = await unlessItWaits(Promise.all(Array.from({ length: 20 }, () => c.fetch(env.server.apiUrl))));
    expect(more).not.toBe('waited');
    expect(env.server.apiCalls).toEqual(Array(21).fill('tok-1'));
    expect(attemptTimes()).toEqual([0, 840]);
  });

  it('uses the token until 5 s before its expiry; from then a call waits for the token request and gets its outcome', async () => {
    const c = client({ timeoutMs: 1500 });
    await c.getToken();
    env.server.hang = true;
    atMs(895_000 - 1);
    expect(await unlessItWaits(c.getToken())).toBe('tok-1');
    atMs(895_000);
    const waiting = c.getToken();
    expect(await unlessItWaits(waiting)).toBe('waited');
    // It joined the background request instead of sending a second one, and gets its failure.
    await expect(waiting).rejects.toMatchObject({ name: 'TokenRequestError', kind: 'timeout' });
    expect(attemptTimes()).toEqual([0, 894.999]);
  });

  it('replaces the token once when a call inside the margin meets 1030 while the background refresh is in flight', async () => {
    const c = client();
    await c.getToken();
    env.server.delayMs = 200;
    env.server.expired = new Set(['tok-1']);
    atMs(840_000);
    expect(await bearerSeen(await c.fetch(env.server.apiUrl))).toBe('tok-2');
    expect(env.server.apiCalls).toEqual(['tok-1', 'tok-2']);
    expect(attemptTimes()).toEqual([0, 840]);
  });

  it('honours the caller AbortSignal while it waits for a background refresh that outlived the token', async () => {
    const c = client({ timeoutMs: 3000 });
    await c.getToken();
    env.server.hang = true;
    atMs(840_000);
    expect(await unlessItWaits(c.getToken())).toBe('tok-1');
    atMs(895_000);
    const call = unlessItWaits(c.fetch(env.server.apiUrl, { signal: AbortSignal.timeout(50) }));
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(env.server.apiCalls).toEqual([]);
    expect(attemptTimes()).toEqual([0, 840]);
  });
});

describe('when the background refresh fails', () => {
  it.each([
    {
      answer: '503 without an OAuth body',
      failWith: { status: 503, body: 'down', contentType: 'text/plain' },
      error: { name: 'TokenRequestError', kind: 'invalid_response', status: 503 },
    },
    {
      answer: '500 server_error',
      failWith: { status: 500, body: '{"error":"server_error"}' },
      error: { name: 'TokenEndpointError', status: 500, error: 'server_error' },
    },
    {
      answer: '429 temporarily_unavailable',
      failWith: { status: 429, body: '{"error":"temporarily_unavailable"}' },
      error: { name: 'TokenEndpointError', status: 429, error: 'temporarily_unavailable' },
    },
  ])(
    'keeps calls going with the valid token on $answer, retries after 5, 10, 20 s then every 30 s, and fails calls with that error once the token runs out',
    async ({ failWith, error }) => {
      const c = client({ refreshMarginSec: 300 });
      await c.getToken();
      env.server.failWith = failWith;
      for (let sec = 600; sec < 895; sec++) {
        atMs(sec * 1000);
        expect(await bearerSeen(await c.fetch(env.server.apiUrl))).toBe('tok-1');
        await env.attempts.settled();
      }
      expect(attemptTimes()).toEqual([0, 600, 605, 615, 635, 665, 695, 725, 755, 785, 815, 845, 875]);
      atMs(895_000);
      await expect(c.fetch(env.server.apiUrl)).rejects.toMatchObject(error);
      // With no usable token, that failure is remembered for 1 s: the next call after it asks again.
      env.server.failWith = undefined;
      atMs(895_999);
      await expect(c.fetch(env.server.apiUrl)).rejects.toMatchObject(error);
      atMs(896_000);
      expect(await bearerSeen(await c.fetch(env.server.apiUrl))).toBe('tok-2');
      expect(attemptTimes()).toEqual([0, 600, 605, 615, 635, 665, 695, 725, 755, 785, 815, 845, 875, 895, 896]);
    },
  );

  it.each([
    { retryAfter: '45', attemptsAt: [600, 645, 690, 735, 780, 825, 870] },
    { retryAfter: '2', attemptsAt: [600, 605, 615, 635, 665, 695, 725, 755, 785, 815, 845, 875] },
    { retryAfter: '3600', attemptsAt: [600, 660, 720, 780, 840] },
  ])(
    'waits for a 429 Retry-After of $retryAfter s (at most 60 s) before the next background attempt when it is later than the pause',
    async ({ retryAfter, attemptsAt }) => {
      const c = client({ refreshMarginSec: 300 });
      await c.getToken();
      env.server.failWith = {
        status: 429,
        body: '{"error":"temporarily_unavailable"}',
        headers: { 'retry-after': retryAfter },
      };
      for (let sec = 600; sec < 895; sec++) {
        atMs(sec * 1000);
        expect(await bearerSeen(await c.fetch(env.server.apiUrl))).toBe('tok-1');
        await env.attempts.settled();
      }
      expect(attemptTimes()).toEqual([0, ...attemptsAt]);
      // Once the token runs out a call asks, whatever the last Retry-After said, and gets the answer.
      atMs(895_000);
      await expect(c.getToken()).rejects.toMatchObject({ status: 429, error: 'temporarily_unavailable' });
      expect(attemptTimes()).toEqual([0, ...attemptsAt, 895]);
    },
  );

  it('keeps the valid token when the client is refused (disabled) inside the margin, does not ask again in the background, and surfaces invalid_client once the token runs out', async () => {
    const c = client();
    await c.getToken();
    env.server.failWith = { status: 401, body: JSON.stringify({ error: 'invalid_client' }) };
    for (let sec = 840; sec < 895; sec++) {
      atMs(sec * 1000);
      expect(await bearerSeen(await c.fetch(env.server.apiUrl))).toBe('tok-1');
      await env.attempts.settled();
    }
    expect(attemptTimes()).toEqual([0, 840]);
    atMs(895_000);
    await expect(c.fetch(env.server.apiUrl)).rejects.toMatchObject({
      name: 'TokenEndpointError',
      status: 401,
      error: 'invalid_client',
    });
    expect(attemptTimes()).toEqual([0, 840, 895]);
  });

  it('leaves no unhandled rejection when background refreshes time out or are refused and nobody waits for them', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const c = client({ timeoutMs: 200 });
      await c.getToken();
      env.server.hang = true;
      atMs(840_000);
      expect(await c.getToken()).toBe('tok-1');
      await env.attempts.settled();
      env.server.hang = false;
      env.server.failWith = { status: 401, body: JSON.stringify({ error: 'invalid_client' }) };
      atMs(845_000);
      expect(await c.getToken()).toBe('tok-1');
      await env.attempts.settled();
      expect(attemptTimes()).toEqual([0, 840, 845]);
      // Node reports an unhandled rejection after the promise jobs of the turn it happened in: by
      // the next turn of the event loop it would have been.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
