import cluster, { type Worker } from 'node:cluster';
import { type Logger, stopSignal } from '#common';

export interface PrimaryOptions {
  readonly workers: number;
  /** How long workers get to drain after SIGTERM before they are killed. */
  readonly drainTimeoutMs: number;
  readonly log: Logger;
  /** Added to every worker's environment. */
  readonly workerEnv?: Readonly<Record<string, string>>;
}

// A worker that dies this many times within the window is crash-looping: stop the service.
const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 30_000;

/** What the CLI prints (exit 1) when the primary gave up on crash-looping workers. */
export function crashLoopError(): Error {
  return new Error(`gateway workers keep failing (${CRASH_LIMIT} exits within ${CRASH_WINDOW_MS / 1000} s): stopped`);
}

/**
 * The cluster primary: forks the workers (which share the listening sockets), restarts any that
 * crash, forwards SIGHUP (reload), and on SIGTERM/SIGINT asks every worker to drain, waits for
 * them (bounded), and resolves with the exit code. Later stop signals and SIGHUP are ignored while
 * the workers drain (signals.ts).
 */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  const { log } = options;
  let stopping = false;
  const crashes: number[] = [];

  // Structured clone rather than JSON on the IPC channel: the metrics workers send hold NaN (a
  // key set not fetched yet), which JSON would turn into null.
  cluster.setupPrimary({ serialization: 'advanced' });
  const fork = (): Worker => cluster.fork(options.workerEnv);
  for (let i = 0; i < options.workers; i++) fork();

  return new Promise<number>((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0);
        return;
      }
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && (crashes[0] ?? now) < now - CRASH_WINDOW_MS) crashes.shift();
      const exit = { pid: worker.process.pid, code, signal, recentCrashes: crashes.length };
      if (crashes.length >= CRASH_LIMIT) {
        log.fatal(exit, 'gateway workers keep crashing; stopping');
        stopping = true;
        for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGKILL');
        resolve(1);
        return;
      }
      log.error(exit, 'gateway worker exited; restarting');
      fork();
    });

    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      log.info({ workers: Object.keys(cluster.workers ?? {}).length }, 'draining gateway workers');
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      setTimeout(() => {
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
        resolve(0);
      }, options.drainTimeoutMs + 2_000).unref();
    };
    void stopSignal().then(stop);
    process.on('SIGHUP', () => {
      // A draining worker has stopped watching its file: SIGHUP would only interrupt its drain.
      if (stopping) return;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGHUP');
    });
  });
}
