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

function client() {
  return createTokenClient({
    tokenUrl: server.tokenUrl,
    clientId: 'cli_1',
    clientSecret: 's3cret',
    clock: createFakeClock(),
  });
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

  it('requests a new token after invalidate()', async () => {
    const c = client();
    await c.getToken();
    c.invalidate();
    expect(await c.getToken()).toBe('tok-2');
    expect(server.tokenRequests).toHaveLength(2);
  });
});
