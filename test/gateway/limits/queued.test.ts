import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname, { file: join(import.meta.dirname, 'one-socket.yaml') });
});
afterAll(() => h.close());

/** A chunked POST whose single chunk is over maxBodyBytes (1000): answered 413 at once. */
function oversizedUpload(): Promise<number> {
  const { port } = new URL(h.gateway.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/upload', method: 'POST', agent: false, headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.write('q'.repeat(1_200));
  });
}

describe('a request waiting for an upstream socket', () => {
  it('is dropped, not sent, when it was answered 413 while it waited, so it never holds the socket it gets', async () => {
    h.upstream.setDelay(800);
    const slow = h.fetch('/api/slow');
    await vi.waitFor(() => expect(h.upstream.seen.some((r) => r.url === '/api/slow')).toBe(true), { timeout: 10_000 });
    // The only upstream socket is busy: this upload waits in the agent's queue when it is refused.
    expect(await oversizedUpload()).toBe(413);
    expect((await slow).status).toBe(200);
    h.upstream.setDelay(0);
    // Had the refused upload taken the socket once it came free, it would hold it (it never sends a thing) until the
    // upstream drops the idle connection (5 s keep-alive here), and this request would wait behind it (6 s measured).
    const started = performance.now();
    expect((await h.fetch('/api/after')).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(h.upstream.seen.filter((r) => r.url === '/api/upload')).toEqual([]);
  });
});
