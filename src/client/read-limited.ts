/**
 * Reads a fetch Response body as text, refusing more than `limit` bytes so a misbehaving
 * server cannot make the client buffer without bound.
 */
export async function readLimited(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: cancelling one branch of a cloned (teed) body settles only once the other
      // branch is cancelled too, which the caller holding that branch may never do.
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
