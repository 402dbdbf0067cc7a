/**
 * A map from G-NAF pid to two 32-bit integers in typed arrays. A Map of pid strings costs about
 * 200 bytes an entry (each key a slice that keeps its whole line alive); G-NAF pids are a
 * prefix and a number (GANSW716000001), so one prefix per table and an open-addressing hash of
 * the numbers costs 12 to 24 bytes. Pids of another shape or prefix go to a small Map.
 */
export class PidTable {
  #prefix: string | null = null;
  /** pid number + 1; 0 marks an empty slot. */
  #keys = new Uint32Array(1 << 16);
  #a = new Int32Array(1 << 16);
  #b = new Int32Array(1 << 16);
  #size = 0;
  /** 32 - log2(capacity): Fibonacci hashing takes the product's high bits. */
  #shift = 16;
  readonly #odd = new Map<string, [number, number]>();

  get size(): number {
    return this.#size + this.#odd.size;
  }

  set(pid: string, a: number, b: number): void {
    const key = this.#key(pid, true);
    if (key === 0) {
      this.#odd.set(pid, [a, b]);
      return;
    }
    if ((this.#size + 1) * 10 > this.#keys.length * 7) this.#grow();
    const slot = this.#slot(key);
    if (this.#keys[slot] === 0) this.#size++;
    this.#keys[slot] = key;
    this.#a[slot] = a;
    this.#b[slot] = b;
  }

  /** The two values stored for `pid`, or undefined. */
  get(pid: string): readonly [number, number] | undefined {
    const key = this.#key(pid, false);
    if (key === 0) return this.#odd.get(pid);
    const slot = this.#slot(key);
    return this.#keys[slot] === 0 ? undefined : [this.#a[slot]!, this.#b[slot]!];
  }

  /** pid number + 1 when `pid` is this table's prefix and up to 9 digits, else 0. */
  #key(pid: string, claim: boolean): number {
    let i = pid.length;
    while (i > 0 && pid.charCodeAt(i - 1) >= 48 && pid.charCodeAt(i - 1) <= 57) i--;
    if (i === pid.length || pid.length - i > 9 || i === 0) return 0;
    if (this.#prefix === null && claim) this.#prefix = pid.slice(0, i);
    if (this.#prefix === null || pid.length - i + this.#prefix.length !== pid.length || !pid.startsWith(this.#prefix))
      return 0;
    return Number(pid.slice(i)) + 1;
  }

  #slot(key: number): number {
    const mask = this.#keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift;
    while (this.#keys[slot] !== 0 && this.#keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  #grow(): void {
    const keys = this.#keys;
    const a = this.#a;
    const b = this.#b;
    this.#keys = new Uint32Array(keys.length * 2);
    this.#a = new Int32Array(keys.length * 2);
    this.#b = new Int32Array(keys.length * 2);
    this.#shift--;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const slot = this.#slot(keys[i]!);
      this.#keys[slot] = keys[i]!;
      this.#a[slot] = a[i]!;
      this.#b[slot] = b[i]!;
    }
  }
}
