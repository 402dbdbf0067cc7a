import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenClient } from '../../src/client/index.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { startTokenServer, type TokenServer } from './token-server.ts';

let server: TokenServer;
beforeEach(async () => {
  server = await startTokenServer();
});
afterEach(async () => {
  await server.close();
});

function client(clock = createFakeClock(), extra: { refreshMarginSec?: number } = {}) {
  return createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: 's3cret', clock, ...extra });
}

describe('token caching', () => {
  it('makes one token request for fifty concurrent callers', async () => {
    const c = client();
    const tokens = await Promise.all(Array.from({ length: 50 }, () => c.getToken()));
    expect(new Set(tokens)).toEqual(new Set(['tok-1']));
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('reuses the cached token across calls instead of requesting one per call', async () => {
    const c = client();
    for (let i = 0; i < 100; i++) expect(await c.getToken()).toBe('tok-1');
    for (let i = 0; i < 10; i++) await c.fetch(server.apiUrl);
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.apiCalls).toEqual(Array(10).fill('tok-1'));
  });

  it('refreshes exactly 60 seconds before expiry, not earlier', async () => {
    const clock = createFakeClock();
    const c = client(clock);
    expect(await c.getToken()).toBe('tok-1');
    clock.advance((900 - 60) * 1000 - 1);
    expect(await c.getToken()).toBe('tok-1');
    expect(server.tokenRequests).toHaveLength(1);
    clock.advance(1);
    expect(await c.getToken()).toBe('tok-2');
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('honours a custom refresh margin', async () => {
    const clock = createFakeClock();
    const c = client(clock, { refreshMarginSec: 120 });
    await c.getToken();
    clock.advance((900 - 120) * 1000);
    expect(await c.getToken()).toBe('tok-2');
  });

  it('caps the margin at half the lifetime so a short-lived token is not fetched on every call', async () => {
    server.expiresIn = 60;
    const clock = createFakeClock();
    const c = client(clock);
    await c.getToken();
    clock.advance(29_999);
    expect(await c.getToken()).toBe('tok-1');
    clock.advance(1);
    expect(await c.getToken()).toBe('tok-2');
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('shares one refresh between concurrent callers once the margin is reached', async () => {
    const clock = createFakeClock();
    const c = client(clock);
    await c.getToken();
    clock.advance(840_000);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => c.getToken()));
    expect(new Set(tokens)).toEqual(new Set(['tok-2']));
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('requests a new token after invalidate()', async () => {
    const c = client();
    await c.getToken();
    c.invalidate();
    expect(await c.getToken()).toBe('tok-2');
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('keeps serving the still-valid token when a refresh inside the margin fails, retrying every 5 s, not on every call', async () => {
    const clock = createFakeClock();
    const c = client(clock);
    await c.getToken();
    clock.advance(850_000);
    server.failWith = { status: 503, body: 'down', contentType: 'text/plain' };
    expect(await c.getToken()).toBe('tok-1');
    for (let i = 0; i < 10; i++) expect(await c.getToken()).toBe('tok-1');
    expect(server.tokenRequests).toHaveLength(2);
    clock.advance(5000);
    expect(await c.getToken()).toBe('tok-1');
    expect(server.tokenRequests).toHaveLength(3);
    clock.advance(45_000);
    await expect(c.getToken()).rejects.toMatchObject({ name: 'TokenRequestError', kind: 'invalid_response' });
  });

  it.each([
    { status: 500, error: 'server_error' },
    { status: 503, error: 'temporarily_unavailable' },
    { status: 429, error: 'temporarily_unavailable' },
  ])('keeps serving the still-valid token when the token endpoint answers $status $error, retrying every 5 s', async ({ status, error }) => {
    const clock = createFakeClock();
    const c = client(clock);
    await c.getToken();
    clock.advance(850_000);
    server.failWith = { status, body: JSON.stringify({ error }) };
    for (let i = 0; i < 10; i++) expect((await c.fetch(server.apiUrl)).status).toBe(200);
    expect(server.apiCalls).toEqual(Array(10).fill('tok-1'));
    expect(server.tokenRequests).toHaveLength(2);
    clock.advance(5000);
    expect(await c.getToken()).toBe('tok-1');
    expect(server.tokenRequests).toHaveLength(3);
    clock.advance(45_000);
    await expect(c.fetch(server.apiUrl)).rejects.toMatchObject({ name: 'TokenEndpointError', status, error });
    server.failWith = undefined;
    expect(await c.getToken()).toBe('tok-2');
  });

  it('surfaces an OAuth error during refresh even while the old token is still valid', async () => {
    const clock = createFakeClock();
    const c = client(clock);
    await c.getToken();
    clock.advance(850_000);
    server.failWith = { status: 401, body: JSON.stringify({ error: 'invalid_client' }) };
    await expect(c.getToken()).rejects.toMatchObject({ name: 'TokenEndpointError', error: 'invalid_client' });
  });

  it('does not cache a failure: the next call asks again', async () => {
    const c = client();
    server.failWith = { status: 401, body: JSON.stringify({ error: 'invalid_client' }) };
    await expect(c.getToken()).rejects.toThrow('invalid_client');
    server.failWith = undefined;
    expect(await c.getToken()).toBe('tok-1');
    expect(server.tokenRequests).toHaveLength(2);
  });
});
