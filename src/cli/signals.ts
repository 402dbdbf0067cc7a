/**
 * Resolves with the first SIGINT or SIGTERM (Ctrl-C, docker stop, a supervisor). Later signals
 * are ignored rather than killing the process mid-drain: a terminal's Ctrl-C reaches both the
 * launcher and this process, and the drain is bounded anyway. So is SIGHUP from then on: the
 * gateway of `start` stops watching its file (and SIGHUP) as its drain begins.
 */
export function shutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const ignore = (): void => undefined;
    const stop = (signal: NodeJS.Signals) => {
      process.on('SIGHUP', ignore);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Waits for `work`, unless a stop signal comes first (then resolves `stopped`: start-up is abandoned). */
export async function unlessStopped<T>(work: Promise<T>, stopping: Promise<NodeJS.Signals>): Promise<{ stopped: false; value: T } | { stopped: true }> {
  return Promise.race([work.then((value) => ({ stopped: false as const, value })), stopping.then(() => ({ stopped: true as const }))]);
}
