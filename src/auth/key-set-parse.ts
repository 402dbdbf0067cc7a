import type { SupportedAlgorithm } from './algorithms.ts';
import { type ImportedKey, importJwk } from './jwk-import.ts';

const MAX_KEYS = 100;

/**
 * Turns a JWKS document into the keys we can use. Malformed or unfitting keys are skipped (their
 * reasons returned for the log) without failing the set; a document with no usable key fails.
 */
export function parseKeySet(
  body: unknown,
  pinned: ReadonlySet<SupportedAlgorithm>,
  previous: ReadonlyMap<string, ImportedKey>,
): { keys: Map<string, ImportedKey>; ignored: string[] } {
  const list = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new Error('key set has no "keys" array');
  const keys = new Map<string, ImportedKey>();
  const ignored: string[] = [];
  for (const jwk of list.slice(0, MAX_KEYS)) {
    const kid = (jwk as { kid?: unknown } | null)?.kid;
    const result = importJwk(jwk, pinned, typeof kid === 'string' ? previous.get(kid) : undefined);
    if (typeof result === 'string') ignored.push(result);
    else if (keys.has(result.kid)) ignored.push(`${result.kid}: duplicate kid`);
    else keys.set(result.kid, result);
  }
  if (list.length > MAX_KEYS) ignored.push(`${list.length - MAX_KEYS} keys beyond the first ${MAX_KEYS}`);
  if (keys.size === 0) throw new Error(`key set has no usable key (${ignored.length} ignored)`);
  return { keys, ignored };
}
