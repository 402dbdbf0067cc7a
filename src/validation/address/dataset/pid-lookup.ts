import type { Pool } from './string-pool.ts';

/**
 * G-NAF pid ↔ row: a pid is a prefix (a small pool id per row) and a number; rows sorted by
 * pid number (`order`, null when rows already are in that order, as in the sample) find a pid
 * by binary search. Pids that do not fit prefix + number are kept in a map (none in practice).
 */
export class PidLookup {
  readonly #prefix: Uint8Array;
  readonly #number: Uint32Array;
  readonly #prefixes: Pool;
  readonly #odd: ReadonlyMap<string, number>;
  readonly #order: Uint32Array | null;

  constructor(
    prefix: Uint8Array,
    number: Uint32Array,
    prefixes: Pool,
    odd: ReadonlyMap<string, number>,
    order: Uint32Array | null,
  ) {
    this.#prefix = prefix;
    this.#number = number;
    this.#prefixes = prefixes;
    this.#odd = odd;
    this.#order = order;
  }

  pidOf(row: number): string | null {
    const prefix = this.#prefix[row]!;
    if (prefix === 0) {
      for (const [pid, r] of this.#odd) if (r === row) return pid;
      return null;
    }
    return `${this.#prefixes.get(prefix)}${this.#number[row]}`;
  }

  rowByPid(pid: string): number {
    const odd = this.#odd.get(pid);
    if (odd !== undefined) return odd;
    const match = /^([A-Z_]{1,12}?)(\d{1,9})$/.exec(pid);
    if (!match) return -1;
    const number = Number(match[2]);
    const numbers = this.#number;
    const order = this.#order;
    const at = (i: number): number => (order ? order[i]! : i);
    let lo = 0;
    let hi = numbers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (numbers[at(mid)]! < number) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < numbers.length && numbers[at(i)] === number; i++) {
      if (this.pidOf(at(i)) === pid) return at(i);
    }
    return -1;
  }
}

/**
 * Prepares built pid columns for lookups: rows without a pid (PAF boxes) repeat the previous
 * number so pid order survives them; returns the rows in pid-number order, or null when they
 * already are.
 */
export function pidOrder(prefix: Uint8Array, numbers: Uint32Array): Uint32Array | null {
  for (let i = 1; i < numbers.length; i++) if (prefix[i] === 0) numbers[i] = numbers[i - 1]!;
  let sorted = true;
  for (let i = 1; i < numbers.length && sorted; i++) sorted = numbers[i - 1]! <= numbers[i]!;
  if (sorted) return null;
  return radixOrder(numbers);
}

/**
 * Rows ordered by number, ties by row: a stable two-pass radix sort on 16-bit digits. A
 * comparator sort of 15.6 M rows copies them into a JavaScript array and its merge buffer
 * (about 250 MB of heap at a national import's peak); this needs two typed arrays.
 */
function radixOrder(numbers: Uint32Array): Uint32Array {
  const n = numbers.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(65_537);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((numbers[order[i]!]! >>> shift) & 0xffff) + 1]!++;
    for (let d = 0; d < 65_536; d++) counts[d + 1]! += counts[d]!;
    for (let i = 0; i < n; i++) {
      const row = order[i]!;
      next[counts[(numbers[row]! >>> shift) & 0xffff]!++] = row;
    }
    [order, next] = [next, order];
  }
  return order;
}
