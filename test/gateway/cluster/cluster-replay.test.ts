import { fork } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe("a cluster worker's DPoP replay cache", () => {
  it('asks for the proofs of one turn in one message, and refuses them all when the primary does not answer in time (fails closed)', async () => {
    const child = fork(join(import.meta.dirname, 'claim-unanswered.ts'), { stdio: 'inherit' });
    const requests: unknown[] = [];
    const result = await new Promise<unknown>((resolve, reject) => {
      child.on('message', (message: { type?: string; fresh?: unknown }) => {
        if (message.type === 'result') resolve(message.fresh);
        else requests.push(message);
      });
      child.on('error', reject);
      child.on('exit', () => resolve('exited without a result'));
    }).finally(() => child.kill());
    expect(requests).toEqual([
      {
        type: 'tokengate:dpop-claims',
        id: 1,
        keys: ['jkt.jti', 'jkt.jti2'],
        expiresAtMs: [expect.any(Number), expect.any(Number)],
      },
    ]);
    expect(result).toEqual([false, false]);
  });
});
