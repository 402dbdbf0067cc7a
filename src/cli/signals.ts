/** Waits for `work`, unless a stop signal comes first (then resolves `stopped`: start-up is abandoned). */
export async function unlessStopped<T>(
  work: Promise<T>,
  stopping: Promise<NodeJS.Signals>,
): Promise<{ stopped: false; value: T } | { stopped: true }> {
  return Promise.race([
    work.then((value) => ({ stopped: false as const, value })),
    stopping.then(() => ({ stopped: true as const })),
  ]);
}

/** Aborted by the stop signal: start-up waits that have no bound of their own (the embedded store's lock) end at once. */
export function abortOnStop(stopping: Promise<NodeJS.Signals>): AbortSignal {
  const controller = new AbortController();
  void stopping.then((signal) => controller.abort(signal));
  return controller.signal;
}

/** What `start` gives, or undefined when it gave up for a stop signal (its AbortError): stopped during start-up, not failed. */
export async function unlessAborted<T>(start: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  try {
    return await start;
  } catch (error) {
    if (signal.aborted && error instanceof Error && error.name === 'AbortError') return undefined;
    throw error;
  }
}
