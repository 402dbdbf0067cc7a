import { ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { CHILD_MARKER, RUN_ID_VARIABLE } from './child-marker.ts';
import { TEST_NODE_FLAGS } from './node-flags.ts';

/**
 * Every process a test file starts must be gone when the file ends, also when a test failed:
 * one left running outlives the run (an orphaned `tokengate gateway` holding its port). A
 * setup file, so it sees every child of the file's worker (spawn, execFile, fork and cluster
 * all end in ChildProcess#spawn); a child still running after the file's own hooks fails the
 * file, named by its command line, and is killed. Each child also carries the run's marker in
 * its environment, which its own children inherit: the run's teardown (leftovers.ts) finds
 * those that outlive the worker. TOKENGATE_SPAWN_LOG=FILE adds a line per child, to count them.
 *
 * Each child also gets the run's NODE_COMPILE_CACHE (run-dir-setup.ts fills it before the first
 * test), also one spawned with an environment of its own: the suite starts hundreds of Node
 * processes on the same sources, and with V8's code of the first one cached, `tokengate
 * check-config` took 1.4 s of CPU instead of 1.9-2.3 s. The cache holds compiled code only: what
 * a process loads and does is unchanged. A Node child also gets the run's V8 flags (node-flags.ts).
 */
interface SpawnOptions {
  readonly file: string;
  args: readonly string[];
  envPairs?: string[];
}
type Spawn = (this: ChildProcess, options: SpawnOptions) => unknown;

const GRACE_MS = 5_000;
const prototype = ChildProcess.prototype as unknown as { spawn: Spawn };
const runId = process.env[RUN_ID_VARIABLE];
const compileCache = process.env['NODE_COMPILE_CACHE'] && `NODE_COMPILE_CACHE=${process.env['NODE_COMPILE_CACHE']}`;
const spawnLog = process.env['TOKENGATE_SPAWN_LOG'];

// Test files of one worker share their modules (vitest.config.ts), and a setup file runs again
// for each: the wrapper is installed once per process, and the files share its map.
const INSTALLED = Symbol.for('tokengate.test.children');
const holder = globalThis as { [INSTALLED]?: Map<ChildProcess, string> };
holder[INSTALLED] ??= install();
const started = holder[INSTALLED];

function install(): Map<ChildProcess, string> {
  const children = new Map<ChildProcess, string>();
  const spawn = prototype.spawn;
  prototype.spawn = function (this: ChildProcess, options: SpawnOptions) {
    if (runId !== undefined) options.envPairs = [...(options.envPairs ?? []), `${CHILD_MARKER}=${runId}`];
    if (compileCache !== undefined && !options.envPairs?.some((pair) => pair.startsWith('NODE_COMPILE_CACHE='))) {
      options.envPairs = [...(options.envPairs ?? []), compileCache];
    }
    if (options.file === process.execPath) options.args = withTestFlags(options.args);
    const result = spawn.call(this, options);
    const commandLine = options.args.join(' ');
    children.set(this, commandLine);
    if (spawnLog) appendFileSync(spawnLog, `${expect.getState().testPath ?? ''}\t${commandLine}\n`);
    return result;
  };
  return children;
}

/** A Node child's argv (argv[0] first) with the run's V8 flags (node-flags.ts) added before its own. */
function withTestFlags(args: readonly string[]): string[] {
  const [node = process.execPath, ...rest] = args;
  return [node, ...TEST_NODE_FLAGS.filter((flag) => !rest.includes(flag)), ...rest];
}

const running = (child: ChildProcess): boolean =>
  child.pid !== undefined && child.exitCode === null && child.signalCode === null;

afterAll(async () => {
  const commandLines = new Map(started);
  started.clear();
  const left = [...commandLines.keys()].filter(running);
  if (left.length === 0) return;
  const exited = left.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, GRACE_MS))]);
  const stillRunning = left.filter(running);
  for (const child of stillRunning) child.kill('SIGKILL');
  if (stillRunning.length > 0) {
    const lines = stillRunning.map((child) => `  pid ${child.pid}: ${commandLines.get(child) ?? '?'}`);
    throw new Error(`child processes still running after this file's tests (killed now):\n${lines.join('\n')}`);
  }
});
