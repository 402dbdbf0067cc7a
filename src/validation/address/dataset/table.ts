import type { GroupColumns, RowColumns } from './columns.ts';
import type { Pool } from './string-pool.ts';

export interface TableParts {
  readonly rows: RowColumns;
  readonly groups: GroupColumns;
  readonly pool: Pool;
  readonly texts: Pool;
  readonly types: Pool;
  readonly prefixes: Pool;
  /** G-NAF pids that do not fit prefix + number (kept in a map; none in practice). */
  readonly oddPids: ReadonlyMap<string, number>;
}

/** What the table derives from its parts when built; a persisted index stores it instead. */
export interface DerivedColumns {
  readonly numeric: Int32Array;
  /** Rows in pid-number order; null when rows already are in that order. */
  readonly pidOrder: Uint32Array | null;
}

/**
 * A loaded data set: column arrays, string pools, and the G-NAF pid lookup (rows sorted by
 * pid number in a Uint32Array, skipped when rows already are in pid order as in the sample).
 */
export class AddressTable {
  readonly rows: RowColumns;
  readonly groups: GroupColumns;
  readonly pool: Pool;
  readonly texts: Pool;
  readonly types: Pool;
  /** Leading integer of each pool string (-1 if none): number ranges compare without parsing. */
  readonly numeric: Int32Array;
  readonly prefixes: Pool;
  readonly oddPids: ReadonlyMap<string, number>;
  readonly pidOrder: Uint32Array | null;

  /** Without `derived` (a table just built) it derives them, filling in pids of pid-less rows. */
  constructor(parts: TableParts, derived?: DerivedColumns) {
    this.rows = parts.rows;
    this.groups = parts.groups;
    this.pool = parts.pool;
    this.texts = parts.texts;
    this.types = parts.types;
    this.prefixes = parts.prefixes;
    this.oddPids = parts.oddPids;
    if (derived) {
      this.numeric = derived.numeric;
      this.pidOrder = derived.pidOrder;
    } else {
      this.numeric = Int32Array.from({ length: parts.pool.size }, (_v, id) => leadingInteger(parts.pool.get(id)));
      carryForward(parts.rows.pidPrefix, parts.rows.pidNumber);
      this.pidOrder = pidOrder(parts.rows.pidNumber);
    }
  }

  get size(): number {
    return this.rows.canonical.length;
  }

  /** The group holding a row (binary search over group boundaries). */
  groupOf(row: number): number {
    const start = this.groups.rowStart;
    let lo = 0;
    let hi = this.groups.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (start[mid]! <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  pidOf(row: number): string | null {
    const prefix = this.rows.pidPrefix[row]!;
    if (prefix === 0) {
      for (const [pid, r] of this.oddPids) if (r === row) return pid;
      return null;
    }
    return `${this.prefixes.get(prefix)}${this.rows.pidNumber[row]}`;
  }

  rowByPid(pid: string): number {
    const odd = this.oddPids.get(pid);
    if (odd !== undefined) return odd;
    const match = /^([A-Z_]{1,12}?)(\d{1,9})$/.exec(pid);
    if (!match) return -1;
    const number = Number(match[2]);
    const numbers = this.rows.pidNumber;
    const at = (i: number): number => (this.pidOrder ? this.pidOrder[i]! : i);
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

function leadingInteger(value: string | null): number {
  const match = value ? /^\d{1,9}/.exec(value) : null;
  return match ? Number(match[0]) : -1;
}

/** Rows without a pid (PAF boxes) repeat the previous number so pid order survives them. */
function carryForward(prefix: Uint8Array, numbers: Uint32Array): void {
  for (let i = 1; i < numbers.length; i++) if (prefix[i] === 0) numbers[i] = numbers[i - 1]!;
}

function pidOrder(numbers: Uint32Array): Uint32Array | null {
  let sorted = true;
  for (let i = 1; i < numbers.length && sorted; i++) sorted = numbers[i - 1]! <= numbers[i]!;
  if (sorted) return null;
  const order = Uint32Array.from({ length: numbers.length }, (_v, i) => i);
  return order.sort((a, b) => numbers[a]! - numbers[b]! || a - b);
}
