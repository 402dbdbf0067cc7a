/**
 * A cheap small-integer key for a token: FNV-1a over its length and its last characters (the
 * signature's tail, random for real signatures), folded to 30 bits so V8 keeps it a Smi.
 * The token caches key their maps by it instead of by the ~800-char token string, which V8
 * would hash in full on every request (each request's header is a fresh string). It is only
 * an index: a cache entry keeps its token and a hit needs the whole string to be equal, so a
 * collision (or a crafted one) costs a miss, never a wrong answer.
 */
const TAIL = 24;

export function fingerprint(raw: string): number {
  let hash = Math.imul(0x811c9dc5 ^ raw.length, 0x01000193);
  for (let i = Math.max(0, raw.length - TAIL); i < raw.length; i++) hash = Math.imul(hash ^ raw.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
