/**
 * The per-address columns of a loaded data set. Strings are pool ids (0 = null); coordinates
 * are micro-degrees (exact to the 6 decimals the API prints); a row's street/locality lives in
 * its group, found by binary search over group boundaries, so rows carry no group column.
 */
export const NO_COORDINATE = -2147483648;

export const ROW_STRING_COLUMNS = [
  'numberFirst',
  'numberLast',
  'flat',
  'level',
  'lot',
  'site',
  'legalParcel',
  'boxNumber',
] as const;
export type RowStringColumn = (typeof ROW_STRING_COLUMNS)[number];

/** The per-row columns every form of the rows has. */
interface RowBase {
  /** Small-vocabulary pool ids (unit and level types). */
  readonly flatType: Uint8Array;
  readonly levelType: Uint8Array;
  readonly latitude: Int32Array;
  readonly longitude: Int32Array;
  readonly pidPrefix: Uint8Array;
  readonly pidNumber: Uint32Array;
}

/** The rows as the builder makes them: every string column dense. */
export interface RowColumns extends RowBase {
  readonly strings: Readonly<Record<RowStringColumn, Uint32Array>>;
  /** Row of the canonical (principal) address; the row itself when it is canonical. */
  readonly canonical: Uint32Array;
}

/** Street-locality (or box-locality) groups: the unit search ranks before it looks at numbers. */
export interface GroupColumns {
  readonly count: number;
  readonly streetName: Uint32Array;
  readonly streetType: Uint32Array;
  readonly streetSuffix: Uint32Array;
  readonly boxType: Uint32Array;
  readonly locality: Uint32Array;
  readonly state: Uint8Array;
  readonly postcode: Uint32Array;
  /** rowStart[g]..rowStart[g+1] are the rows of group g (length count + 1). */
  readonly rowStart: Uint32Array;
}

/**
 * Row attributes that most addresses lack (a range's last number, a lot, a site name, a legal
 * parcel, a box number, the principal of an alias, a unit, a level): stored only where present,
 * as row numbers with their values, with one presence bit per attribute per row (eight: one
 * byte). At national scale this keeps about 24 of the 32 bytes per address these columns would
 * take as dense Uint32Arrays; the house number, on nearly every address, stays dense.
 */
export const SPARSE_COLUMNS = [
  'numberLast',
  'lot',
  'site',
  'legalParcel',
  'boxNumber',
  'canonical',
  'flat',
  'level',
] as const;
export type SparseName = (typeof SPARSE_COLUMNS)[number];
export const DENSE_COLUMNS = ['numberFirst'] as const;
export type DenseName = (typeof DENSE_COLUMNS)[number];

export interface SparseColumn {
  /** Rows that have a value, ascending. */
  readonly rows: Uint32Array;
  readonly values: Uint32Array;
}

/** The rows of a table that serves: dense columns for what most addresses have, sparse for the rest. */
export interface TableRows extends RowBase {
  readonly strings: Readonly<Record<DenseName, Uint32Array>>;
  readonly sparse: Readonly<Record<SparseName, SparseColumn>>;
  /** Bit i set: SPARSE_COLUMNS[i] has a value at this row. */
  readonly present: Uint8Array;
}

/** A sparse column's index in SPARSE_COLUMNS: its presence bit is 1 << index. */
export const SPARSE = Object.fromEntries(SPARSE_COLUMNS.map((name, i) => [name, i])) as {
  readonly [K in SparseName]: number;
};

/** The serving form of built rows (a canonical row is its own: only aliases are stored). */
export function compactRows(rows: RowColumns): TableRows {
  const n = rows.canonical.length;
  const present = new Uint8Array(n);
  const sparse = {} as Record<SparseName, SparseColumn>;
  for (const name of SPARSE_COLUMNS) {
    const dense = name === 'canonical' ? rows.canonical : rows.strings[name];
    const absent = (row: number): boolean => (name === 'canonical' ? dense[row] === row : dense[row] === 0);
    let count = 0;
    for (let row = 0; row < n; row++) if (!absent(row)) count++;
    const column = { rows: new Uint32Array(count), values: new Uint32Array(count) };
    let at = 0;
    for (let row = 0; row < n; row++) {
      if (absent(row)) continue;
      column.rows[at] = row;
      column.values[at++] = dense[row]!;
      present[row]! |= 1 << SPARSE[name];
    }
    sparse[name] = column;
  }
  return {
    strings: { numberFirst: rows.strings.numberFirst },
    sparse,
    present,
    flatType: rows.flatType,
    levelType: rows.levelType,
    latitude: rows.latitude,
    longitude: rows.longitude,
    pidPrefix: rows.pidPrefix,
    pidNumber: rows.pidNumber,
  };
}

/** The value of a sparse column at `row`, or 0 when the row has none (binary search). */
export function sparseValue(column: SparseColumn, row: number): number {
  const rows = column.rows;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]! < row) lo = mid + 1;
    else hi = mid;
  }
  return lo < rows.length && rows[lo] === row ? column.values[lo]! : 0;
}
