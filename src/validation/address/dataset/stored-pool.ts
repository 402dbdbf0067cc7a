import type { Pool } from './string-pool.ts';

const decoder = new TextDecoder('utf-8', { fatal: false });
const LARGE_POOL = 2 ** 21;

/**
 * A string pool read in place from a persisted index: UTF-8 bytes with an offsets array and
 * the ids in sorted order. Values are decoded on first use and kept, so a pool of millions of
 * site names or parcel ids costs the heap only for the few that answers print.
 */
export class StoredPool implements Pool {
  readonly #bytes: Uint8Array;
  readonly #offsets: Uint32Array;
  readonly #sorted: Uint32Array | null;
  /** Decoded values: an array for pools of identifiers, a map for huge pools of free text. */
  readonly #decoded: { [id: number]: string | undefined } | Map<number, string>;

  /**
   * `offsets` has size + 1 entries (id 0, null, is empty); `sorted` lists ids 1… by value, or
   * is null for pools nothing is looked up in (`find` then scans).
   */
  constructor(bytes: Uint8Array, offsets: Uint32Array, sorted: Uint32Array | null) {
    this.#bytes = bytes;
    this.#offsets = offsets;
    this.#sorted = sorted;
    this.#decoded = offsets.length <= LARGE_POOL ? new Array<string | undefined>(offsets.length) : new Map();
  }

  get size(): number {
    return this.#offsets.length - 1;
  }

  get(id: number): string | null {
    if (id <= 0 || id >= this.size) return null;
    const decoded = this.#decoded;
    let value = decoded instanceof Map ? decoded.get(id) : decoded[id];
    if (value === undefined) {
      value = decoder.decode(this.#bytes.subarray(this.#offsets[id]!, this.#offsets[id + 1]!));
      if (decoded instanceof Map) decoded.set(id, value);
      else decoded[id] = value;
    }
    return value;
  }

  find(value: string): number {
    const sorted = this.#sorted;
    if (!sorted) {
      for (let id = 1; id < this.size; id++) if (this.get(id) === value) return id;
      return 0;
    }
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.get(sorted[mid]!)! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo < sorted.length && this.get(sorted[lo]!) === value ? sorted[lo]! : 0;
  }
}

/** The ids 1… of `pool` ordered by value (JavaScript string order, as `find` compares). */
export function sortedIds(pool: Pool): Uint32Array {
  const ids = Uint32Array.from({ length: Math.max(0, pool.size - 1) }, (_v, i) => i + 1);
  return ids.sort((a, b) => {
    const x = pool.get(a)!;
    const y = pool.get(b)!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
