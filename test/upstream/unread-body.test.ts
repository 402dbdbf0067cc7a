import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/upstream/http-server.ts';
import { startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

/**
 * Sends `head` and then a chunked body that never ends (64 KiB a millisecond) on a raw socket
 * until the server closes the connection or `giveUpMs` passes; returns the answer's status line
 * and when the connection closed (null: still open).
 */
async function endlessUpload(
  baseUrl: string,
  head: string,
  giveUpMs: number,
): Promise<{ status: string; closedAfterMs: number | null }> {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  let closed = false;
  socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  const started = Date.now();
  socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`);
  const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 'x'), Buffer.from('\r\n')]);
  while (!closed && Date.now() - started < giveUpMs) {
    socket.write(chunk);
    await sleep(1);
  }
  const closedAfterMs = closed ? Date.now() - started : null;
  socket.destroy();
  return { status: answer.split('\r\n', 1)[0] ?? '', closedAfterMs };
}

describe('a request body nobody reads, after the answer', () => {
  let t: TestUpstream;
  beforeAll(async () => {
    t = await startTestUpstream();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  // Read and discarded until requestTimeout (30 s, checked every 30 s) before: a core and the line rate per connection.
  const bound = SERVER_LIMITS.unreadBodyGraceMs + 3_000;

  it('closes an endless upload answered 413 (admin API, token endpoint) soon after the answer', async () => {
    const admin = await endlessUpload(
      t.upstream.adminUrl,
      `POST /projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminToken}\r\nContent-Type: application/json\r\n`,
      bound + 3_000,
    );
    expect(admin.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(admin.closedAfterMs).not.toBeNull();
    expect(admin.closedAfterMs).toBeLessThan(bound);
    const token = await endlessUpload(
      t.upstream.url,
      'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n',
      bound + 3_000,
    );
    expect(token.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(token.closedAfterMs).not.toBeNull();
    expect(token.closedAfterMs).toBeLessThan(bound);
  }, 30_000);

  it('closes an endless upload refused before its body is read (no admin token) soon after the answer', async () => {
    const refused = await endlessUpload(
      t.upstream.adminUrl,
      'POST /projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
      bound + 3_000,
    );
    expect(refused.status).toBe('HTTP/1.1 401 Unauthorized');
    expect(refused.closedAfterMs).not.toBeNull();
    expect(refused.closedAfterMs).toBeLessThan(bound);
  }, 30_000);

  it('keeps a keep-alive connection whose body was read whole for the next request', async () => {
    const res = await fetch(`${t.upstream.adminUrl}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'p', plan: 'free' }),
    });
    expect(res.status).toBe(201);
    await res.text();
    // Nothing to wait for: the check is that the grace timer (2 s) did not end this connection,
    // which only its whole period and a little more can show.
    await sleep(SERVER_LIMITS.unreadBodyGraceMs + 200);
    expect(
      (await fetch(`${t.upstream.adminUrl}/projects`, { headers: { authorization: `Bearer ${t.adminToken}` } })).status,
    ).toBe(200);
  }, 30_000);
});
