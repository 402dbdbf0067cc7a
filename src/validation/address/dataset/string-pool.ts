/**
 * What search and formatting need of a string pool: id → value and value → id. Id 0 is
 * reserved for "empty" (null), so a zeroed typed array means "no value".
 */
export interface Pool {
  get(id: number): string | null;
  /** The id of a value the pool holds, or 0. */
  find(value: string): number;
  readonly size: number;
}

/** Interned strings while a data set is being built: every distinct value is stored once. */
export class StringPool implements Pool {
  readonly #ids = new Map<string, number>();
  readonly #values: (string | null)[] = [null];

  intern(value: string | null): number {
    if (value === null || value === '') return 0;
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#values.length;
      this.#values.push(value);
      this.#ids.set(value, id);
    }
    return id;
  }

  find(value: string): number {
    return this.#ids.get(value) ?? 0;
  }

  get(id: number): string | null {
    return this.#values[id] ?? null;
  }

  get size(): number {
    return this.#values.length;
  }
}
