import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * A loopback port for a server a test will start, usually in a child process. Taken below the
 * kernel's ephemeral range (32768–60999 here), so no `listen(0)` of this or another process can
 * be handed it between this check and the child's bind (a gateway failed to start on a port a
 * balancer in the test process had just been given). Each vitest worker has a block of its own,
 * walked in order, so two files running at once never pick the same one. The walk starts at a
 * random place in the block: two vitest runs on one machine (each worker 1 of its own run) would
 * otherwise both try the block's first port, both find it free, and collide.
 */
const FIRST = 20_000;
const BLOCK = 1_500;
const worker = Number(process.env['VITEST_POOL_ID'] ?? 0) % 8;
let next = randomInt(BLOCK);

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = FIRST + worker * BLOCK + (next++ % BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free loopback port in ${FIRST + worker * BLOCK}–${FIRST + (worker + 1) * BLOCK - 1}`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
