import type { Logger } from '#common';
import { isMetricsRequest, type MetricsAnswer } from './metrics-ipc.ts';
import type { MetricSnapshot } from './metrics-snapshot.ts';

/**
 * In a cluster worker: answers the primary's metrics requests with `snapshot()` (nothing yet
 * while the gateway starts). Returns the function that stops answering.
 */
export function answerMetricsRequests(snapshot: () => Promise<readonly MetricSnapshot[]>, log: Logger): () => void {
  const onMessage = (message: unknown) => {
    if (!isMetricsRequest(message)) return;
    snapshot().then(
      (metrics) => {
        const answer: MetricsAnswer = { type: 'tokengate:metrics-answer', id: message.id, metrics };
        // A channel that closed meanwhile (the worker is exiting) is no error worth a line.
        if (process.connected) process.send?.(answer, undefined, {}, () => undefined);
      },
      (error: unknown) => log.error({ err: error }, "metrics: cannot collect this worker's metrics"),
    );
  };
  process.on('message', onMessage);
  return () => process.off('message', onMessage);
}
