import type { SearchHit } from './search-hit.ts';

/** What ranking needs of a candidate street-locality group. */
export interface Ranked {
  readonly group: number;
  readonly score: number;
}

/**
 * Best score first, then lower group: a numeric sort of packed keys (score, position) is several
 * times faster than a comparator over objects when a short prefix selects thousands of streets.
 */
export function byScore<T extends Ranked>(candidates: T[], slotOfGroup: Uint32Array): T[] {
  if (candidates.length < 64) return candidates.sort((a, b) => b.score - a.score || a.group - b.group);
  const slot = 2 ** 22;
  const keys = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    slotOfGroup[c.group] = i;
    keys[i] = (10_000 - c.score) * slot + c.group;
  }
  keys.sort();
  return Array.from(keys, (key) => candidates[slotOfGroup[key % slot]!]!);
}

/** Ties keep the earlier hit (better group order, lower number): insert only strictly better. */
export function insert(top: SearchHit[], hit: SearchHit, max: number): void {
  if (top.length === max && hit.score <= top[max - 1]!.score) return;
  let i = top.length;
  while (i > 0 && top[i - 1]!.score < hit.score) i--;
  top.splice(i, 0, hit);
  if (top.length > max) top.pop();
}
