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
