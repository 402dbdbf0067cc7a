/**
 * Reads a fetch Response body as text, refusing more than `limit` bytes so a misbehaving
 * server cannot make the client buffer without bound. Once `signal` fires, the read ends and
 * gives undefined, as for a body over the limit.
 */
export async function readLimited(
  response: Response,
  limit: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  // Not awaited: cancelling one branch of a cloned (teed) body settles only once the other
  // branch is cancelled too, which the caller holding that branch may never do. A pending read
  // ends at once (done) all the same.
  const stop = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) return undefined;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        stop();
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
