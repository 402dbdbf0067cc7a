import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { lockDirectory } from '../../../src/store/dir-lock.ts';
import {
  childOf,
  fixture,
  type Holder,
  lockDirs,
  NEW_PID_NAMESPACE,
  recordedHolder,
  run,
  spawnHolder,
} from './lock-files.ts';

const CONTENDERS = 4;
const ROUNDS = 8;
const ROUND_GAP_MS = 250;

/** The contender's lines, one at a time. */
function lines(child: ChildProcessWithoutNullStreams): AsyncIterator<string> {
  return createInterface({ input: child.stdout })[Symbol.asyncIterator]();
}

/** Ends a holder (closing its stdin, so it releases its locks) and waits for it, also when it was paused. */
async function stop(holder: Holder): Promise<void> {
  holder.kill('SIGCONT');
  holder.stdin.end();
  if (holder.exitCode === null && holder.signalCode === null) await once(holder, 'exit');
}

describe('embedded store lock between processes', () => {
  const { fresh } = lockDirs('tg-lock-proc-');

  it('lets exactly one of several processes racing for the lock of a holder killed with SIGKILL take it, and refuses the others naming it', {
    timeout: 30_000,
  }, async () => {
    const dirs = Array.from({ length: ROUNDS }, () => fresh().dir);
    // The killed holder leaves both files behind, naming it.
    expect(await run('exit-holding.ts', ['SIGKILL', ...dirs])).toMatchObject({ signal: 'SIGKILL' });
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
        expect(recordedHolder(dir)?.pid).toBe(winner);
        for (const outcome of inRound.filter((o) => o !== 'won'))
          expect(outcome).toMatch(`embedded store in use by process ${winner} on host ${hostname()} since`);
      }
    } finally {
      for (const child of children) child.stdin.end();
      await Promise.all(children.map((child) => child.exitCode ?? once(child, 'exit')));
    }
  });

  it.each([
    ['exit', { code: 0, signal: null }],
    ['throw', { code: 1, signal: null }],
    ['SIGKILL', { code: null, signal: 'SIGKILL' }],
  ])('frees the directory the moment its holder ends (%s) without closing the store', async (how, ended) => {
    const { dir } = fresh();
    expect(await run('exit-holding.ts', [how, dir])).toMatchObject(ended);
    const release = await lockDirectory(dir);
    expect(recordedHolder(dir)?.pid).toBe(process.pid);
    await release();
  });

  it('frees at once the lock of a holder killed with SIGKILL in another PID namespace (a container before its restart)', async () => {
    // Regression: the lock of a killed holder in another namespace held for 30 s (its lease).
    const { dir } = fresh();
    const unshare = await spawnHolder([dir], NEW_PID_NAMESPACE);
    try {
      await expect(lockDirectory(dir)).rejects.toThrow(`embedded store in use by process 1 on host ${hostname()}`);
      process.kill(await childOf(unshare.pid!), 'SIGKILL');
      await once(unshare, 'exit');
      const started = Date.now();
      const release = await lockDirectory(dir);
      expect(Date.now() - started).toBeLessThan(1_000);
      await release();
    } finally {
      unshare.kill('SIGKILL');
    }
  });

  it('keeps the lock of a holder paused with SIGSTOP: another process is refused until the holder ends', async () => {
    // Regression: a holder paused past its lease lost the lock, and after SIGCONT two processes wrote the directory.
    const { dir } = fresh();
    const holder = await spawnHolder([dir]);
    try {
      holder.kill('SIGSTOP');
      await expect(lockDirectory(dir)).rejects.toThrow(`embedded store in use by process ${holder.pid} on host`);
      holder.kill('SIGCONT');
      await expect(lockDirectory(dir)).rejects.toThrow(`embedded store in use by process ${holder.pid} on host`);
    } finally {
      await stop(holder);
    }
    await (await lockDirectory(dir))();
  });

  it('refuses a live holder naming its pid, host and start time, and how to check it', async () => {
    const { dir, file } = fresh();
    const holder = await spawnHolder([dir]);
    try {
      const refusal = await lockDirectory(dir).then(
        () => new Error('not refused'),
        (error: unknown) => error as Error,
      );
      const host = hostname();
      expect(refusal.message).toMatch(
        new RegExp(
          `^embedded store in use by process ${holder.pid} on host ${host} since (\\S+) \\(${file}\\)\\. One process per DATA_DIR: stop that one, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between replicas\\. To check it: ps -p ${holder.pid} -o args on ${host} \\(inside its container, if it runs in one\\)\\. The lock ends with that process, however it ends\\.$`,
        ),
      );
      const since = refusal.message.match(/ since (\S+) /)?.[1] ?? '';
      expect(Date.now() - Date.parse(since)).toBeLessThan(60_000);
      expect(recordedHolder(dir)).toEqual({ host, pid: holder.pid, since });
    } finally {
      await stop(holder);
    }
  });
});
