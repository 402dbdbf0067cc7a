/**
 * System calls per request, counted by strace (not part of `npm run bench`):
 * `npx node bench/gateway/syscalls.ts [plain|public|one|cycle|fresh ...]`.
 *
 * callgrind (instructions.ts) counts user-space instructions only; the kernel's share of a
 * request (socket reads and writes, epoll, timers) is invisible to it. Each scenario gets its own
 * server; after SC_WARMUP requests strace attaches to all its threads for SC_MEASURED requests
 * and reports the calls per request, by name. Counts, unlike times, do not depend on what else
 * the machine is doing. Scenarios as in instructions.ts.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CYCLED, chosenScenarios, setUpBench } from './one-server.ts';

const scenarios = chosenScenarios(process.argv.slice(2));
const MEASURED = Number(process.env.SC_MEASURED ?? 10_000);
const WARMUP = Math.max(Number(process.env.SC_WARMUP ?? 20_000), 2 * CYCLED);
const bench = await setUpBench('tg-sc-', WARMUP + MEASURED);

/** Minor page faults of every thread of `pid` so far (field 10 of /proc/<pid>/stat, after the command name). */
function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** Attaches strace to every thread of `pid`; resolves with its summary once `stop` is called. */
function attach(pid: number, out: string) {
  const strace = spawn('strace', ['-f', '-c', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  const done = new Promise<void>((resolve) => strace.once('exit', () => resolve()));
  return {
    attached: new Promise<void>((resolve) => setTimeout(resolve, 1_000)),
    stop: async () => {
      strace.kill('SIGINT');
      await done;
      return readFileSync(out, 'utf8');
    },
  };
}

console.log(
  `node ${process.version}; strace -c -f; ${WARMUP} warm-up requests, then ${MEASURED} counted; 4 connections`,
);
for (const scenario of scenarios) {
  const server = await bench.start(scenario);
  await bench.load.run(bench.job(scenario, server, WARMUP));
  const faultsBefore = minorFaults(server.process.pid ?? 0);
  const trace = attach(server.process.pid ?? 0, join(bench.dir, `${scenario}.strace`));
  await trace.attached;
  const measured = await bench.load.run(bench.job(scenario, server, MEASURED));
  const summary = await trace.stop();
  const faults = (minorFaults(server.process.pid ?? 0) - faultsBefore) / measured.requests;
  server.stop();
  // strace -c rows: % time, seconds, usecs/call, calls, [errors], syscall
  const rows = summary
    .split('\n')
    .map((line) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2] !== 'total')
    .map((m) => ({ name: m[2] ?? '', perRequest: Number(m[1]) / measured.requests }))
    .filter((r) => r.perRequest >= 0.01)
    .sort((a, b) => b.perRequest - a.perRequest);
  const total = rows.reduce((sum, r) => sum + r.perRequest, 0);
  console.log(
    `${scenario.padEnd(7)} ${faults.toFixed(2)} page faults, ${total.toFixed(2)} calls/request: ${rows.map((r) => `${r.name} ${r.perRequest.toFixed(2)}`).join(', ')}`,
  );
}
bench.stop();
