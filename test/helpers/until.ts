/**
 * Waits for something a test cannot be told about directly (a request reaching a server, a
 * background reload): checks every `intervalMs` until it holds, and throws naming `what` once
 * `timeoutMs` has passed. Never a fixed sleep: it returns as soon as the condition holds.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 10_000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
