type Column = Uint32Array | Int32Array | Uint8Array;

/**
 * A typed array that grows by doubling while a data set is being built, read in place (no
 * copy) when the table is built, then released, so that a builder and the table it builds do
 * not both hold every column at once.
 */
export class GrowableColumn<T extends Column> {
  readonly #make: (length: number) => T;
  #data: T;
  length = 0;

  constructor(make: (length: number) => T) {
    this.#make = make;
    this.#data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.#data.length) {
      const bigger = this.#make(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.length++] = value;
  }

  /** The values pushed so far, in place: valid until the next push or release. */
  view(): T {
    return this.#data.subarray(0, this.length) as T;
  }

  /** Drops the values (the builder has copied them into the table). */
  release(): void {
    this.#data = this.#make(0);
    this.length = 0;
  }
}

export const uint32Column = (): GrowableColumn<Uint32Array> => new GrowableColumn((n) => new Uint32Array(n));
export const int32Column = (): GrowableColumn<Int32Array> => new GrowableColumn((n) => new Int32Array(n));
export const uint8Column = (): GrowableColumn<Uint8Array> => new GrowableColumn((n) => new Uint8Array(n));
