import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { LoadJob, LoadResult } from './loadgen.ts';

const dir = import.meta.dirname;
const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** `taskset -c <core>` when the machine has the cores and the tool; otherwise unpinned. */
export function pinned(core: number, args: string[]): [string, string[]] {
  if (hasTaskset && availableParallelism() > core) return ['taskset', ['-c', String(core), ...args]];
  const [cmd, ...rest] = args;
  return [cmd ?? process.execPath, rest];
}

export const pinningNote =
  hasTaskset && availableParallelism() > 1 ? 'pinned with taskset' : 'NOT pinned (no taskset or one core)';

/** A measured server's totals so far (probe.ts). */
export interface Usage {
  cpuUs: number;
  userUs: number;
  rss: number;
  gc: { minor: number; major: number; ms: number };
}

export interface Child {
  readonly process: ChildProcess;
  readonly info: Record<string, string>;
  usage(): Promise<Usage>;
  stop(): void;
}

/**
 * Starts `bench/gateway/<script>` on a core and waits for its `ready` message. `wrapper` runs
 * node under another program (valgrind, for instructions.ts).
 */
export async function startChild(
  script: string,
  args: string[],
  core: number,
  env: NodeJS.ProcessEnv = process.env,
  nodeFlags: string[] = [],
  wrapper: string[] = [],
): Promise<Child> {
  const [cmd, argv] = pinned(core, [...wrapper, process.execPath, ...nodeFlags, join(dir, script), ...args]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env });
  const info = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.on('message', (m: { type?: string }) => {
      if (m.type === 'ready') resolve(m as Record<string, string>);
    });
  });
  return {
    process: child,
    info,
    usage: () =>
      new Promise((resolve) => {
        const onMessage = (m: { type?: string } & Partial<Usage>) => {
          if (m.type !== 'usage') return;
          child.off('message', onMessage);
          resolve({
            cpuUs: m.cpuUs ?? 0,
            userUs: m.userUs ?? 0,
            rss: m.rss ?? 0,
            gc: m.gc ?? { minor: 0, major: 0, ms: 0 },
          });
        };
        child.on('message', onMessage);
        child.send({ type: 'usage' });
      }),
    stop: () => {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
    },
  };
}

/** Runs a script to completion on a core and returns its last stdout line parsed as JSON. */
export async function runToJson<T>(script: string, args: string[], core: number, nodeFlags: string[] = []): Promise<T> {
  const [cmd, argv] = pinned(core, [process.execPath, ...nodeFlags, join(dir, script), ...args]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`${script} failed (${code}): ${out.slice(-500)}`);
  return JSON.parse(last) as T;
}

export interface LoadGenerator {
  run(job: LoadJob): Promise<LoadResult>;
  stop(): void;
}

/** Starts the long-lived load generator (loadgen.ts) on a core. */
export async function startLoadGenerator(core: number): Promise<LoadGenerator> {
  const child = await startChild('loadgen.ts', [], core);
  let nextId = 0;
  return {
    run: (job) =>
      new Promise((resolve) => {
        const id = nextId++;
        const onMessage = (m: { type?: string; id?: number } & LoadResult) => {
          if (m.type !== 'result' || m.id !== id) return;
          child.process.off('message', onMessage);
          resolve(m);
        };
        child.process.on('message', onMessage);
        child.process.send({ type: 'run', id, job });
      }),
    stop: () => child.stop(),
  };
}
