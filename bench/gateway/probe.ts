import { constants, PerformanceObserver } from 'node:perf_hooks';

/** Garbage collections so far, by kind, and their total pause (ms). */
const gc = { minor: 0, major: 0, ms: 0 };

/**
 * Measured servers answer the orchestrator over IPC: `{type:'usage'}` → their CPU time (µs),
 * resident memory and garbage collections so far, so CPU per request is the server's own, not
 * the load generator's.
 */
export function answerUsageProbes(): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
      else gc.major++;
      gc.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'usage') return;
    const cpu = process.cpuUsage();
    process.send?.({
      type: 'usage',
      cpuUs: cpu.user + cpu.system,
      userUs: cpu.user,
      rss: process.memoryUsage().rss,
      gc: { ...gc },
    });
  });
}

export function announce(payload: Record<string, unknown>): void {
  process.send?.({ type: 'ready', ...payload });
}
