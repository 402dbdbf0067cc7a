/**
 * Why fetch failed. It says only "fetch failed"; the reason is in its cause: an errno
 * (ECONNREFUSED) or, with no code, a message (a port fetch refuses to use is "bad port").
 * Undefined when the cause says nothing.
 */
export function fetchFailureCause(error: unknown): string | undefined {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | null | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' && cause.message !== '' ? cause.message : undefined;
}
