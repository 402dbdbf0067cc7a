import type { Pool } from './string-pool.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Free text of a data set being built (site names, legal parcel ids): mostly unique, so it is
 * appended as UTF-8 without interning, each value a new id. A national import holds about
 * seven million parcel ids: as JavaScript strings in a Map they took about 500 MB of the
 * import's peak memory, as bytes and offsets about 100 MB. Only the index writer and address
 * formatting read them, by id.
 */
export class TextStore implements Pool {
  #bytes = new Uint8Array(1 << 16);
  #offsets = new Uint32Array(1024);
  #size = 1;
  #end = 0;

  append(value: string | null): number {
    if (value === null || value === '') return 0;
    const room = this.#end + value.length * 3;
    if (room > this.#bytes.length) this.#bytes = grown(this.#bytes, room, (n) => new Uint8Array(n));
    if (this.#size + 1 >= this.#offsets.length)
      this.#offsets = grown(this.#offsets, this.#size + 2, (n) => new Uint32Array(n));
    this.#end += encoder.encodeInto(value, this.#bytes.subarray(this.#end)).written;
    if (this.#end > 0xffffffff) throw new RangeError('more than 4 GiB of address text');
    this.#offsets[this.#size + 1] = this.#end;
    return this.#size++;
  }

  get(id: number): string | null {
    if (id <= 0 || id >= this.#size) return null;
    return decoder.decode(this.#bytes.subarray(this.#offsets[id]!, this.#offsets[id + 1]!));
  }

  /** Nothing looks text up by value; a scan keeps the Pool contract. */
  find(value: string): number {
    for (let id = 1; id < this.#size; id++) if (this.get(id) === value) return id;
    return 0;
  }

  get size(): number {
    return this.#size;
  }
}

function grown<T extends Uint8Array | Uint32Array>(array: T, needed: number, make: (n: number) => T): T {
  let length = array.length * 2;
  while (length < needed) length *= 2;
  const bigger = make(length);
  bigger.set(array);
  return bigger;
}
