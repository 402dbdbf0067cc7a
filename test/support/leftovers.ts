import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { CHILD_MARKER, RUN_ID_VARIABLE } from './child-marker.ts';

/**
 * The run's global setup: gives the run an id that every process the tests start carries in its
 * environment (child-processes.ts), and at the end fails the run, naming each command line, if
 * such a process is still running: a child that outlived its test file's worker, or a grandchild
 * (a cluster worker of a killed gateway). Those found are killed, so that none stays orphaned.
 * Linux only (it reads /proc); elsewhere the per-file check still runs.
 */
const GRACE_MS = 5_000;

export default function setup(): () => Promise<void> {
  const runId = randomUUID();
  process.env[RUN_ID_VARIABLE] = runId;
  return async () => {
    if (!existsSync('/proc/self/environ')) return;
    let left = await marked(`${CHILD_MARKER}=${runId}`);
    for (let waited = 0; left.length > 0 && waited < GRACE_MS; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      left = await marked(`${CHILD_MARKER}=${runId}`);
    }
    if (left.length === 0) return;
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone in the meantime.
      }
    }
    const lines = left.map(({ pid, commandLine }) => `  pid ${pid}: ${commandLine}`);
    // vitest prints a teardown's error but keeps the run's exit status.
    process.exitCode = 1;
    throw new Error(
      `processes started by the tests were still running after the run (killed now):\n${lines.join('\n')}`,
    );
  };
}

/** The processes (other than this one) whose environment holds `entry`, with their command lines. */
async function marked(entry: string): Promise<{ pid: number; commandLine: string }[]> {
  const found: { pid: number; commandLine: string }[] = [];
  for (const name of await readdir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      if (!environ.includes(entry)) continue;
      const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ').trim();
      // A zombie (exited, not yet reaped) has an empty command line and is not running.
      if (commandLine) found.push({ pid, commandLine });
    } catch {
      // Another user's process, or one that ended while it was read.
    }
  }
  return found;
}
