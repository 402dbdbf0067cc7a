import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterFixture, startClusterFixture } from './fixture.ts';

let fx: ClusterFixture;

beforeAll(async () => {
  fx = await startClusterFixture();
});
afterAll(() => fx.close());

type Line = Record<string, unknown>;

describe('a gateway that hits an uncaught error', () => {
  it('writes the access-log lines it still held and a fatal line, then exits 1', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', join(import.meta.dirname, 'crash-on-sigusr2.ts'), join(import.meta.dirname, 'run-gateway.ts')],
      {
        env: fx.env('1'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let stdout = '';
      proc.stdout.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
      const lines = (): Line[] => stdout.split('\n').flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Line] : []));
      let url: unknown;
      for (let i = 0; i < 600 && url === undefined; i++) {
        url = lines().find((l) => l['msg'] === 'gateway listening')?.['url'];
        if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (let i = 0; i < 3; i++) expect((await fetch(`${String(url)}/api/last-${i}`)).status).toBe(200);
      proc.kill('SIGUSR2');
      expect(await exited).toBe(1);
      const statuses = lines().flatMap((l) => (typeof l['reqId'] === 'string' ? [l['status']] : []));
      expect(statuses).toEqual([200, 200, 200]);
      expect(lines().at(-1)).toMatchObject({
        level: 60,
        msg: 'uncaught exception; exiting',
        err: { message: 'a bug in a callback' },
      });
    } finally {
      proc.kill('SIGKILL');
    }
  });
});
