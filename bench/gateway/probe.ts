/**
 * Measured servers answer the orchestrator over IPC: `{type:'usage'}` → their CPU time (µs)
 * and resident memory, so CPU per request is the server's own, not the load generator's.
 */
export function answerUsageProbes(): void {
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'usage') return;
    const cpu = process.cpuUsage();
    process.send?.({ type: 'usage', cpuUs: cpu.user + cpu.system, userUs: cpu.user, rss: process.memoryUsage().rss });
  });
}

export function announce(payload: Record<string, unknown>): void {
  process.send?.({ type: 'ready', ...payload });
}
