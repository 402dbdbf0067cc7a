import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '#test/until.ts';
import { type ClusterFixture, startClusterFixture } from './fixture.ts';

let fx: ClusterFixture;
let child: ChildProcess | undefined;

beforeAll(async () => {
  fx = await startClusterFixture();
});
afterAll(() => fx.close());
afterEach(() => {
  fx.upstream.setDelay(0);
  child?.kill('SIGKILL');
  child = undefined;
});

type Line = Record<string, unknown>;

/** `tokengate gateway` (run-gateway.ts) with `workers`, in its own process group so a test can signal the whole group. */
function startProcess(workers: string, preload: string[] = []) {
  const proc = spawn(process.execPath, [...preload, join(import.meta.dirname, 'run-gateway.ts')], {
    env: fx.env(workers),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child = proc;
  const lines: Line[] = [];
  let stderr = '';
  let buffer = '';
  proc.stdout?.setEncoding('utf8');
  proc.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.startsWith('{')) lines.push(JSON.parse(part) as Line);
  });
  proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child: proc,
    lines,
    exited,
    stderr: () => stderr,
    async waitFor(predicate: (line: Line) => boolean, count = 1): Promise<Line[]> {
      for (let i = 0; i < 600; i++) {
        const found = lines.filter(predicate);
        if (found.length >= count) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`log lines not seen; stderr: ${stderr}`);
    },
  };
}

const listening = (l: Line) => l['msg'] === 'gateway listening';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the gateway, sends a request the upstream answers 1.5 s after it arrives, sends `signals`
 * once the upstream holds it, and checks that it is still answered and the process exits 0, not
 * by a signal.
 */
async function drainSurvives(
  workers: string,
  signals: (run: ReturnType<typeof startProcess>) => Promise<void>,
): Promise<void> {
  const run = startProcess(workers);
  const [first] = await run.waitFor(listening, Number(workers));
  fx.upstream.setDelay(1_500);
  const seen = fx.upstream.seen.length;
  const inflight = fetch(`${String(first?.['url'])}/api/slow`);
  await until(() => fx.upstream.seen.length > seen, 'the upstream holds the in-flight request');
  await signals(run);
  expect((await inflight).status).toBe(200);
  expect(await run.exited).toEqual({ code: 0, signal: null });
}

describe('gateway signals during a drain', () => {
  for (const workers of ['1', '2']) {
    // One process for two signals during one drain (a start each before): a second SIGTERM, then
    // a SIGHUP, both while the request is in flight.
    it(`workers ${workers}: a second SIGTERM does not cut the drain short, and a SIGHUP during a drain does not kill the process`, () =>
      drainSurvives(workers, async (run) => {
        run.child.kill('SIGTERM');
        await pause(300);
        run.child.kill('SIGTERM');
        await pause(300);
        run.child.kill('SIGHUP');
      }));

    it(`workers ${workers}: SIGTERM to the whole process group (systemd, kill -TERM -PGID) lets in-flight requests finish`, () =>
      drainSurvives(workers, async (run) => {
        process.kill(-(run.child.pid as number), 'SIGTERM');
      }));
  }

  for (const workers of ['1', '2']) {
    it(`workers ${workers}: a request still waiting for the upstream when drainTimeoutMs runs out gets 503 1054 and its access line, not a reset, and the process exits 0`, async () => {
      const run = startProcess(workers);
      const [first] = await run.waitFor(listening, Number(workers));
      fx.upstream.setDelay(30_000);
      const seen = fx.upstream.seen.length;
      const inflight = fetch(`${String(first?.['url'])}/api/slow`);
      await vi.waitFor(() => expect(fx.upstream.seen.length).toBe(seen + 1), { timeout: 10_000 });
      run.child.kill('SIGTERM');
      const res = await inflight;
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'Gateway is shutting down', error_code: '1054', success: false });
      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(run.lines).toContainEqual(
        expect.objectContaining({ msg: 'request', status: 503, decision: 'public', errorCode: '1054' }),
      );
    });
  }

  it('workers 1: a SIGTERM while the listener starts stops the gateway once it is up, with exit 0 (was killed by the signal)', async () => {
    const run = startProcess('1', ['--import', join(import.meta.dirname, 'sigterm-at-listen.ts')]);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.lines.map((l) => l['msg'])).toEqual(
      expect.arrayContaining(['gateway listening', 'draining', 'stopped']),
    );
  });
});
