/**
 * Verified-token cache admission (TinyLFU's "doorkeeper"): a token is cached on its second
 * sighting, not its first. A flood of tokens that are each used once (the cache cannot help
 * them anyway) then costs no cache insertion, eviction or garbage, and cannot push out the
 * tokens clients do reuse. A reused token pays one extra signature check, once.
 *
 * The doorkeeper is a bit set of token fingerprints, cleared after `bits / 8` insertions so it
 * stays sparse (about 6% false "seen before" on average, which merely admits a token early).
 * Admission only ever follows a full verification, so a forged fingerprint gains nothing.
 */
export interface Doorkeeper {
  /** True when a token with fingerprint `fp` (fingerprint.ts) was (probably) seen since the last clearing; otherwise remembers it. */
  seenBefore(fp: number): boolean;
}

export function createDoorkeeper(bits = 1 << 20): Doorkeeper {
  const words = new Int32Array(bits >>> 5);
  const limit = bits >>> 3;
  let inserted = 0;
  return {
    seenBefore(fp) {
      const at = fp & (bits - 1);
      const word = at >>> 5;
      const mask = 1 << (at & 31);
      if (((words[word] as number) & mask) !== 0) return true;
      words[word] = (words[word] as number) | mask;
      inserted += 1;
      if (inserted >= limit) {
        words.fill(0);
        inserted = 0;
      }
      return false;
    },
  };
}
