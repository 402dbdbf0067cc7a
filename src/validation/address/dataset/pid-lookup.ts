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
  const order = Uint32Array.from({ length: numbers.length }, (_v, i) => i);
  return order.sort((a, b) => numbers[a]! - numbers[b]! || a - b);
}
