import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

/**
 * TOKENGATE_CPU_LOG=FILE adds a line per test file: the CPU seconds its worker spent on it and
 * those of the processes it started and waited for (their own children included), then the
 * file. The suite is CPU-bound on two cores, so this, not a file's duration, says what a file
 * costs the run: `sort -rn FILE | head`. Linux only (it reads /proc/self/stat).
 */
const log = process.env['TOKENGATE_CPU_LOG'];
const TICKS_PER_SECOND = 100;

/** utime + stime and cutime + cstime of this process, in clock ticks (proc(5), fields 14-17). */
function cpuTicks(): { own: number; children: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const at = (field: number) => Number(fields[field - 3]);
  return { own: at(14) + at(15), children: at(16) + at(17) };
}

if (log) {
  let start = { own: 0, children: 0 };
  beforeAll(() => {
    start = cpuTicks();
  });
  afterAll(() => {
    const end = cpuTicks();
    const seconds = (ticks: number) => (ticks / TICKS_PER_SECOND).toFixed(2);
    appendFileSync(
      log,
      `${seconds(end.own - start.own + end.children - start.children)}\t${seconds(end.own - start.own)}\t${seconds(end.children - start.children)}\t${expect.getState().testPath ?? ''}\n`,
    );
  });
}
