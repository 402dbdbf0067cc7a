import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import type { LockHolder } from '../../../src/store/dir-lock-holder.ts';

export const fixture = (name: string) => join(import.meta.dirname, name);

/**
 * Runs what follows in a PID namespace of its own, as a container does (its first process is pid
 * 1 there), in a user namespace too so that no privilege is needed. The namespace's process is
 * unshare's one child; killing unshare with SIGKILL kills it too.
 */
export const NEW_PID_NAMESPACE = ['unshare', '--user', '--map-root-user', '--pid', '--fork', '--kill-child'];

/**
 * A temporary root for the calling describe block (removed after it) and `fresh()`: a store
 * directory of its own for each test, with the path of its lock file.
 */
export function lockDirs(prefix: string): { fresh(): { dir: string; file: string } } {
  let root: string;
  let count = 0;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  return {
    fresh() {
      const dir = join(root, `db${++count}`);
      return { dir, file: `${dir}.lock` };
    },
  };
}

/** The holder `<dir>.holder` names, read as an operator would (never open `<dir>.lock` in a holding process). */
export function recordedHolder(dir: string): LockHolder | undefined {
  const db = new DatabaseSync(`${dir}.holder`, { readOnly: true, timeout: 5_000 });
  try {
    const row = db.prepare('SELECT host, pid, since FROM holder').get() as LockHolder | undefined;
    return row && { ...row };
  } finally {
    db.close();
  }
}

export type Holder = ChildProcessByStdio<Writable, Readable, null>;

/**
 * A process holding the locks of `dirs` (holder.ts), once it says so: it releases them and ends
 * when its stdin is closed. `prefix` runs it through another command (NEW_PID_NAMESPACE).
 */
export async function spawnHolder(dirs: string[], prefix: string[] = []): Promise<Holder> {
  const [command = '', ...args] = [...prefix, process.execPath, fixture('holder.ts'), ...dirs];
  // unshare's own complaint once its child is killed (`sigprocmask unblock failed`) is left out.
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', prefix.length > 0 ? 'ignore' : 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  if (line !== 'locked') throw new Error(`holder said ${line}`);
  return child;
}

/** Runs a fixture to its end: how it ended and its stderr. */
export async function run(
  name: string,
  args: string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [fixture(name), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(killer);
  return { code, signal, stderr };
}

/** The pid, as seen here, of the one process unshare (NEW_PID_NAMESPACE) runs in the new namespace. */
export async function childOf(pid: number): Promise<number> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim().split(' ');
  if (children.length !== 1) throw new Error(`process ${pid} has children ${children.join(', ')}`);
  return Number(children[0]);
}

export async function waitFor(
  condition: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
