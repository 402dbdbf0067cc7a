import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, otherHostHolder, readHolder, writeLock } from './lock-files.ts';

const CONTENDERS = 4;
const ROUNDS = 8;
const ROUND_GAP_MS = 250;
const fixture = (name: string) => join(import.meta.dirname, name);

/** Runs a fixture to its end: its exit code and stderr. */
async function run(name: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [name, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stderr };
}

/** The contender's lines, one at a time. */
function lines(child: ChildProcessWithoutNullStreams): AsyncIterator<string> {
  return createInterface({ input: child.stdout })[Symbol.asyncIterator]();
}

describe('embedded store lock between processes', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tg-lock-proc-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lets exactly one of several processes racing for a stale lock take it, and refuses the others', {
    timeout: 30_000,
  }, async () => {
    const dirs = Array.from({ length: ROUNDS }, (_, round) => join(root, `race${round}`));
    for (const dir of dirs) await writeLock(`${dir}.lock`, otherHostHolder(), HOUR_MS);
    const children = Array.from({ length: CONTENDERS }, () =>
      spawn(process.execPath, [fixture('contender.ts'), JSON.stringify(dirs)]),
    );
    try {
      const readers = children.map(lines);
      for (const reader of readers) expect((await reader.next()).value).toBe('ready');
      const startAt = Date.now() + 200;
      for (const child of children) child.stdin.write(`${startAt} ${ROUND_GAP_MS}\n`);
      const outcomes = await Promise.all(
        readers.map(async (reader) => JSON.parse((await reader.next()).value as string) as string[]),
      );
      for (const [round, dir] of dirs.entries()) {
        const inRound = outcomes.map((outcome) => outcome[round]);
        expect(
          inRound.filter((outcome) => outcome === 'won'),
          `round ${round}: ${inRound.join(' | ')}`,
        ).toHaveLength(1);
        const winner = children[inRound.indexOf('won')]!.pid;
        expect((await readHolder(`${dir}.lock`)).pid).toBe(winner);
        for (const outcome of inRound.filter((o) => o !== 'won'))
          expect(outcome).toMatch(`embedded store in use by process ${winner} on this host`);
      }
    } finally {
      for (const child of children) child.stdin.end();
      await Promise.all(children.map((child) => child.exitCode ?? once(child, 'exit')));
    }
  });

  it.each(['exit', 'throw'])('removes its lock when the process ends (%s) without closing the store', async (how) => {
    const dir = join(root, `ended-${how}`);
    const { code } = await run(fixture('exit-holding.ts'), [dir, how]);
    expect(code).toBe(how === 'exit' ? 0 : 1);
    await expect(readFile(`${dir}.lock`)).rejects.toThrow('ENOENT');
  });
});
