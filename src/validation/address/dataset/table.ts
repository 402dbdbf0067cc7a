import {
  type GroupColumns,
  SPARSE,
  SPARSE_COLUMNS,
  type SparseColumn,
  sparseValue,
  type TableRows,
} from './columns.ts';
import { PidLookup } from './pid-lookup.ts';
import type { Pool } from './string-pool.ts';

export interface TableParts {
  readonly rows: TableRows;
  readonly groups: GroupColumns;
  readonly pool: Pool;
  readonly texts: Pool;
  readonly types: Pool;
  readonly prefixes: Pool;
  /** G-NAF pids that do not fit prefix + number (kept in a map; none in practice). */
  readonly oddPids: ReadonlyMap<string, number>;
}

/** What the builder derives from a table's parts; a persisted index stores it as it is. */
export interface DerivedColumns {
  /** Leading integer of each pool string (-1 if none): number ranges compare without parsing. */
  readonly numeric: Int32Array;
  /** Rows in pid-number order; null when rows already are in that order. */
  readonly pidOrder: Uint32Array | null;
}

/** A loaded data set: column arrays, string pools, and the G-NAF pid lookup. */
export class AddressTable {
  readonly rows: TableRows;
  readonly groups: GroupColumns;
  readonly pool: Pool;
  readonly texts: Pool;
  readonly types: Pool;
  readonly numeric: Int32Array;
  readonly prefixes: Pool;
  readonly oddPids: ReadonlyMap<string, number>;
  readonly pidOrder: Uint32Array | null;
  readonly #pids: PidLookup;
  /** The sparse columns by SPARSE index (an array: call sites pass a constant index). */
  readonly #sparse: readonly SparseColumn[];

  constructor(parts: TableParts, derived: DerivedColumns) {
    this.rows = parts.rows;
    this.groups = parts.groups;
    this.pool = parts.pool;
    this.texts = parts.texts;
    this.types = parts.types;
    this.prefixes = parts.prefixes;
    this.oddPids = parts.oddPids;
    this.numeric = derived.numeric;
    this.pidOrder = derived.pidOrder;
    this.#sparse = SPARSE_COLUMNS.map((name) => parts.rows.sparse[name]);
    this.#pids = new PidLookup(
      parts.rows.pidPrefix,
      parts.rows.pidNumber,
      parts.prefixes,
      parts.oddPids,
      this.pidOrder,
    );
  }

  get size(): number {
    return this.rows.pidNumber.length;
  }

  /** A sparse column's value at `row` (`column` a SPARSE index): a pool id, 0 when none. */
  value(column: number, row: number): number {
    return (this.rows.present[row]! & (1 << column)) === 0 ? 0 : sparseValue(this.#sparse[column]!, row);
  }

  /** The row of the principal address: the row itself unless it is an alias. */
  canonical(row: number): number {
    return (this.rows.present[row]! & (1 << SPARSE.canonical)) === 0
      ? row
      : sparseValue(this.rows.sparse.canonical, row);
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
    return this.#pids.pidOf(row);
  }

  rowByPid(pid: string): number {
    return this.#pids.rowByPid(pid);
  }
}

/** The `numeric` column of a pool. */
export function numericOf(pool: Pool): Int32Array {
  return Int32Array.from({ length: pool.size }, (_v, id) => {
    const match = /^\d{1,9}/.exec(pool.get(id) ?? '');
    return match ? Number(match[0]) : -1;
  });
}
